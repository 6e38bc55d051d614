// Type-level checks that an island's API types agree with the OpenAPI
// document (openapi.gen.ts, generated from the server's Go types). Each
// feature's api/*.contract.ts states, for every documented route its api
// module calls, which island type it sends or reads; tsc fails the build
// with the field that disagrees. Nothing here exists at run time.
//
//   type _ = [
//     Expect<Reads<"/api/script/{scriptId}", "get", Script>>,
//     Expect<Sends<"/api/script/{scriptId}", "put", ScriptInput>>,
//   ];
//
// A disagreement reads as `{ at: "points[].rssi"; server: ...; island: ... }`
// not satisfying the constraint `never`.
import type { paths } from "@/lib/openapi.gen";

type Method = "get" | "put" | "post" | "delete" | "patch";

export type Path = keyof paths;

type Operation<P extends Path, M extends Method> = NonNullable<paths[P][M]>;

type Success<R> = R[Extract<keyof R, 200 | 201 | 202>];

// ResponseBody is the JSON body a route answers with on success.
export type ResponseBody<P extends Path, M extends Method> =
  Operation<P, M> extends { responses: infer R } ? (Success<R> extends { content: { "application/json": infer B } } ? B : never) : never;

// RequestBody is the JSON body a route reads.
export type RequestBody<P extends Path, M extends Method> =
  Operation<P, M> extends { requestBody: { content: { "application/json": infer B } } } ? B : never;

// Expect accepts only an empty list of disagreements.
export type Expect<Problems extends never> = Problems;

// Reads lists where the island's type T of a route's answer disagrees with
// the document: a field the island declares that the answer lacks (a
// renamed field), a value of another kind (a retyped field), a null or a
// missing field the island does not allow. Fields the island leaves out are
// fine: it reads what it needs.
export type Reads<P extends Path, M extends Method, T> = [ResponseBody<P, M>] extends [never]
  ? { at: "(the route answers no JSON body)"; server: never; island: T }
  : Compare<ResponseBody<P, M>, T, "read", "", []>;

// Sends lists where the island's type T of a route's request body
// disagrees with the document: a field the server does not read (a renamed
// field), a value of another kind, a null the server does not take. Fields
// the island leaves out are fine: the server reads them as their zero value,
// and checks what it needs.
export type Sends<P extends Path, M extends Method, T> = [RequestBody<P, M>] extends [never]
  ? { at: "(the route reads no JSON body)"; server: never; island: T }
  : Compare<RequestBody<P, M>, T, "send", "", []>;

// Frozen is T with read-only arrays, the shape of an `as const` value.
export type Frozen<T> = T extends readonly (infer E)[] ? readonly Frozen<E>[] : T extends object ? { [K in keyof T]: Frozen<T[K]> } : T;

// ExampleFits lists where a documented example (openapi-examples.gen.ts)
// does not fit the island's type T: the example must be a T.
export type ExampleFits<Example, T> = [Example] extends [Frozen<T>] ? never : { at: "(the documented example)"; example: Example; island: T };

type Direction = "read" | "send";

type Problem<At extends string, Server, Island> = { at: At extends "" ? "(the body)" : At; server: Server; island: Island };

// Absent is the undefined a server value may be. A field that is optional
// and nullable is a Go pointer without omitempty: the server always writes
// it, as null when nil, so it is never missing from an answer.
type Absent<S> = null extends S ? never : Extract<S, undefined>;

// Kind widens literals to their primitive, so that an island's union of
// known strings compares with the document's string.
type Kind<V> = V extends string ? string : V extends number ? number : V extends boolean ? boolean : V;

type Join<At extends string, K> = K extends string | number ? (At extends "" ? `${K}` : `${At}.${K}`) : At;

// Compare walks the island's type, which is finite where the document's may
// refer to itself (a category tree); Depth stops a self-referring island
// type as deep as any answer is read.
type Compare<Server, Island, D extends Direction, At extends string, Depth extends unknown[]> = Depth["length"] extends 8
  ? never
  : unknown extends Server
    ? never // the document does not describe this value (json.RawMessage, any)
    : unknown extends Island
      ? never // the island does not look into it
      : D extends "read"
        ? [Extract<Server, null>] extends [Extract<Island, null>]
          ? [Absent<Server>] extends [Extract<Island, undefined>]
            ? CompareValue<NonNullable<Server>, NonNullable<Island>, D, At, Depth, Server, Island>
            : Problem<At, Server, Island>
          : Problem<At, Server, Island>
        : [Extract<Island, null>] extends [Extract<Server, null>]
          ? CompareValue<NonNullable<Server>, NonNullable<Island>, D, At, Depth, Server, Island>
          : Problem<At, Server, Island>;

type CompareValue<S, I, D extends Direction, At extends string, Depth extends unknown[], Server, Island> = [S] extends [readonly unknown[]]
  ? [I] extends [readonly unknown[]]
    ? Compare<S[number], I[number], D, `${At}[]`, [...Depth, unknown]>
    : Problem<At, Server, Island>
  : [S] extends [object]
    ? [I] extends [readonly unknown[]]
      ? Problem<At, Server, Island>
      : [I] extends [object]
        ? I extends unknown // each member of an island's union of objects on its own
          ? CompareFields<S, I, D, At, Depth>
          : never
        : Problem<At, Server, Island>
    : D extends "read"
      ? [Kind<S>] extends [Kind<I>]
        ? never
        : Problem<At, Server, Island>
      : [Kind<I>] extends [Kind<S>]
        ? never
        : Problem<At, Server, Island>;

// CompareFields checks each field the island declares; one the server's
// object does not have is a problem in either direction.
// An optional field's I[K] includes undefined, as the island reads it; the
// mapped type's own undefined for it is dropped from the list.
type CompareFields<S, I, D extends Direction, At extends string, Depth extends unknown[]> = Exclude<
  {
  [K in keyof I]: K extends keyof S
    ? Compare<S[K], I[K], D, Join<At, K>, [...Depth, unknown]>
    : string extends keyof S
      ? Compare<S[string & keyof S], I[K], D, Join<At, K>, [...Depth, unknown]>
      : Problem<Join<At, K>, "(no such field)", I[K]>;
  }[keyof I],
  undefined
>;
