// TestPane decodes a payload pasted as hex or base64 on a port with the
// editor's current codec (POST /api/decoder/test) and shows the decoded
// JSON, the warnings, the errors, the console log and the time taken.
import { useState, type FormEvent, type ReactNode } from "react";
import { Button } from "@/components/ui/button";
import { FieldError, Input, Label } from "@/components/ui/field";
import { Form } from "@/components/ui/form";
import { Radio, RadioGroup } from "@/components/ui/radio-group";
import { TextField } from "@/components/ui/text-field";
import { defineMessages, useIntl, type NoMessageValues } from "react-intl";
import { decoderErrorIds, runTest, type TestCodec, type TestResult } from "@/features/decoders/api/decoders";
import { fieldErrors, serverMessage, translator } from "@/lib/api-error";

const messages = defineMessages<{
  title: NoMessageValues;
  fPort: NoMessageValues;
  payload: NoMessageValues;
  format: NoMessageValues;
  hex: NoMessageValues;
  base64: NoMessageValues;
  run: NoMessageValues;
  running: NoMessageValues;
  data: NoMessageValues;
  noData: NoMessageValues;
  warnings: NoMessageValues;
  errors: NoMessageValues;
  log: NoMessageValues;
  noLog: NoMessageValues;
  took: { time: string };
  none: NoMessageValues;
  noCodec: NoMessageValues;
  generic: NoMessageValues;
}>({
  title: { id: "decoders.test.title", defaultMessage: "Test" },
  fPort: { id: "decoders.test.fPortLabel", defaultMessage: "Port (fPort)" },
  payload: { id: "decoders.test.payloadLabel", defaultMessage: "Payload" },
  format: { id: "decoders.test.format", defaultMessage: "The payload is" },
  hex: { id: "decoders.test.formatHex", defaultMessage: "hex" },
  base64: { id: "decoders.test.formatBase64", defaultMessage: "base64" },
  run: { id: "decoders.test.run", defaultMessage: "Decode" },
  running: { id: "decoders.test.running", defaultMessage: "Decoding…" },
  data: { id: "decoders.test.data", defaultMessage: "Decoded data" },
  noData: { id: "decoders.test.noData", defaultMessage: "No data" },
  warnings: { id: "decoders.test.warnings", defaultMessage: "Warnings" },
  errors: { id: "decoders.test.errors", defaultMessage: "Errors" },
  log: { id: "decoders.test.log", defaultMessage: "Console log" },
  noLog: { id: "decoders.test.noLog", defaultMessage: "The codec logged nothing" },
  took: { id: "decoders.test.took", defaultMessage: "The codec ran for {time}" },
  none: { id: "decoders.test.none", defaultMessage: "None" },
  noCodec: { id: "decoders.test.noCodec", defaultMessage: "Write a codec or upload a module first" },
  generic: { id: "error.generic", defaultMessage: "An error occured, try again later" },
});

export interface TestPaneProps {
  companyId: number;
  // codec is what the test runs; null when there is nothing to run yet.
  codec: TestCodec | null;
}

type Run = { state: "idle" } | { state: "running" } | { state: "done"; result: TestResult } | { state: "failed"; message: string };

// inputErrors are the message ids of the test call's rules on the port and
// the payload (modules/decoders/internal/decoding/test.go), checked before
// sending: a mistyped payload is then no refused request, which the browser
// would report in its console. The server stays the judge of the rest.
function inputErrors(fPort: string, payload: string, format: "hex" | "base64"): Record<string, string> {
  const out: Record<string, string> = {};
  const port = Number(fPort);
  if (fPort.trim() === "" || !Number.isInteger(port) || port < 0 || port > 255) out.fPort = "decoders.test.fPort";
  if (format === "hex") {
    const digits = payload.trim().replace(/[ :\-\n\t]/g, "").replace(/^0x/i, "");
    if (!/^([0-9a-fA-F]{2})*$/.test(digits)) out.payload = "decoders.test.hex";
  } else {
    const text = payload.trim();
    if (text !== "" && (!/^([A-Za-z0-9+/]*|[A-Za-z0-9_-]*)={0,2}$/.test(text) || text.length % 4 === 1)) out.payload = "decoders.test.base64";
  }
  return out;
}

export function TestPane({ companyId, codec }: TestPaneProps): ReactNode {
  const intl = useIntl();
  const [fPort, setFPort] = useState("1");
  const [payload, setPayload] = useState("");
  const [format, setFormat] = useState<"hex" | "base64">("hex");
  const [run, setRun] = useState<Run>({ state: "idle" });
  const [errors, setErrors] = useState<Record<string, string>>({});

  const onSubmit = (e: FormEvent<HTMLFormElement>): void => {
    e.preventDefault();
    const port = Number(fPort);
    const translate = translator(intl, decoderErrorIds);
    const refused = Object.entries(inputErrors(fPort, payload, format));
    setErrors(Object.fromEntries(refused.map(([field, id]) => [field, translate(id) ?? id])));
    if (refused.length > 0) {
      setRun({ state: "idle" });
      return;
    }
    if (!codec) {
      setRun({ state: "failed", message: intl.formatMessage(messages.noCodec) });
      return;
    }
    setRun({ state: "running" });
    runTest(companyId, codec, { fPort: Number.isInteger(port) ? port : -1, payload, format })
      .then((result) => setRun({ state: "done", result }))
      .catch((err: unknown) => {
        const fields = fieldErrors(err, translate);
        // The payload's errors name bytes or base64: both are the one field here.
        const shown: Record<string, string> = {};
        if (fields.fPort) shown.fPort = fields.fPort;
        if (fields.bytes ?? fields.base64) shown.payload = (fields.bytes ?? fields.base64)!;
        setErrors(shown);
        const other = Object.entries(fields).find(([f]) => !["fPort", "bytes", "base64"].includes(f))?.[1];
        setRun({ state: "failed", message: other ?? serverMessage(err, translate) ?? intl.formatMessage(messages.generic) });
      });
  };

  return (
    <section className="fh-decoder__test" aria-labelledby="decoder-test-heading">
      <h2 id="decoder-test-heading">{intl.formatMessage(messages.title)}</h2>
      <Form className="fh-decoder__test-form" onSubmit={onSubmit} validationErrors={errors}>
        <TextField className="fh-field fh-field--port" name="fPort" value={fPort} onChange={setFPort} inputMode="numeric" isRequired>
          <Label>{intl.formatMessage(messages.fPort)}</Label>
          <Input />
          <FieldError className="fh-field__error" />
        </TextField>
        <TextField className="fh-field fh-field--grow" name="payload" value={payload} onChange={setPayload}>
          <Label>{intl.formatMessage(messages.payload)}</Label>
          <Input className="fh-mono" spellCheck={false} autoComplete="off" />
          <FieldError className="fh-field__error" />
        </TextField>
        <RadioGroup
          className="fh-radios"
          orientation="horizontal"
          value={format}
          onChange={(v) => setFormat(v === "base64" ? "base64" : "hex")}
        >
          <Label>{intl.formatMessage(messages.format)}</Label>
          <div className="fh-radios__list">
            <Radio className="fh-radio" value="hex">
              {intl.formatMessage(messages.hex)}
            </Radio>
            <Radio className="fh-radio" value="base64">
              {intl.formatMessage(messages.base64)}
            </Radio>
          </div>
        </RadioGroup>
        <Button type="submit" className="fh-button" isPending={run.state === "running"}>
          {run.state === "running" ? intl.formatMessage(messages.running) : intl.formatMessage(messages.run)}
        </Button>
      </Form>
      <div aria-live="polite" className="fh-decoder__result">
        {run.state === "failed" ? (
          <p className="fh-decoder__alert" role="alert">
            {run.message}
          </p>
        ) : null}
        {run.state === "done" ? <Result result={run.result} /> : null}
      </div>
    </section>
  );
}

function Result({ result }: { result: TestResult }): ReactNode {
  const intl = useIntl();
  const time =
    result.micros >= 1000
      ? `${intl.formatNumber(result.micros / 1000, { maximumFractionDigits: 1 })} ms`
      : `${intl.formatNumber(result.micros)} µs`;
  return (
    <div className="fh-decoder__output">
      <p className="fh-decoder__took">{intl.formatMessage(messages.took, { time })}</p>
      <h3>{intl.formatMessage(messages.data)}</h3>
      {result.data ? (
        <pre className="fh-decoder__json" tabIndex={0}>
          {JSON.stringify(result.data, null, 2)}
        </pre>
      ) : (
        <p className="fh-muted">{intl.formatMessage(messages.noData)}</p>
      )}
      <List title={intl.formatMessage(messages.errors)} items={result.errors} tone="error" />
      <List title={intl.formatMessage(messages.warnings)} items={result.warnings} tone="warning" />
      <h3>{intl.formatMessage(messages.log)}</h3>
      {result.log.length > 0 ? (
        <pre className="fh-decoder__log" tabIndex={0}>
          {result.log.join("\n")}
        </pre>
      ) : (
        <p className="fh-muted">{intl.formatMessage(messages.noLog)}</p>
      )}
    </div>
  );
}

function List({ title, items, tone }: { title: string; items: string[]; tone: "error" | "warning" }): ReactNode {
  const intl = useIntl();
  return (
    <>
      <h3>{title}</h3>
      {items.length > 0 ? (
        <ul className={`fh-decoder__list fh-decoder__list--${tone}`}>
          {items.map((s, i) => (
            <li key={i}>{s}</li>
          ))}
        </ul>
      ) : (
        <p className="fh-muted">{intl.formatMessage(messages.none)}</p>
      )}
    </>
  );
}
