// api calls the portal's JSON API with the session cookie. On a 401 it renews
// the session once through the refresh cookie and repeats the call, a
// silent re-login without any stored password.
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly body: unknown,
  ) {
    super(message);
  }
}

export async function api<T = unknown>(method: string, path: string, body?: unknown): Promise<T> {
  let res = await send(method, path, body);
  if (res.status === 401 && path !== "/api/users/refresh") {
    const renewed = await send("POST", "/api/users/refresh");
    if (renewed.ok) res = await send(method, path, body);
  }
  const text = await res.text();
  const data: unknown = text ? JSON.parse(text) : null;
  if (!res.ok) {
    const message = (data as { message?: string } | null)?.message ?? res.statusText;
    throw new ApiError(res.status, message, data);
  }
  return data as T;
}

function send(method: string, path: string, body?: unknown): Promise<Response> {
  // The server answers in the language of the "lang" cookie, else of
  // Accept-Language; the page is drawn in the user's stored language, which
  // a browser without the cookie does not send, so the page's own language
  // goes with every call and refusals read as the page does.
  const headers: Record<string, string> = { Accept: "application/json" };
  if (document.documentElement.lang) headers["Accept-Language"] = document.documentElement.lang;
  const init: RequestInit = { method, credentials: "same-origin", headers };
  if (body !== undefined) {
    init.body = JSON.stringify(body);
    init.headers = { ...init.headers, "Content-Type": "application/json" };
  }
  return fetch(path, init);
}
