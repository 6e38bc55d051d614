// A real SMTP server (smtp-server) on a free loopback port that keeps every
// message it receives, so that a test can read the mail the portal sends.
import { EventEmitter } from "node:events";
import { SMTPServer } from "smtp-server";

export async function startMailbox() {
  const messages = [];
  const events = new EventEmitter();
  const server = new SMTPServer({
    // Plain SMTP on loopback: no STARTTLS (the portal would try it when
    // offered) and no login (SMTP_URL carries no user).
    disabledCommands: ["STARTTLS", "AUTH"],
    authOptional: true,
    logger: false,
    onData(stream, session, callback) {
      const chunks = [];
      stream.on("data", (c) => chunks.push(c));
      stream.on("error", callback);
      stream.on("end", () => {
        const message = parseMessage(Buffer.concat(chunks).toString("utf8"));
        message.envelope = {
          from: session.envelope.mailFrom && session.envelope.mailFrom.address,
          to: session.envelope.rcptTo.map((r) => r.address),
        };
        messages.push(message);
        events.emit("message", message);
        callback();
      });
    },
  });
  await new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", resolve);
  });
  const { port } = server.server.address();

  return {
    port,
    url: `smtp://127.0.0.1:${port}`,
    messages,
    // waitFor resolves with the first message (already received or still to
    // come) that matches; it fails after timeout ms with what did arrive.
    waitFor(match, { timeout = 15000 } = {}) {
      const found = messages.find(match);
      if (found) return Promise.resolve(found);
      return new Promise((resolve, reject) => {
        const onMessage = (m) => {
          if (!match(m)) return;
          clearTimeout(timer);
          events.off("message", onMessage);
          resolve(m);
        };
        const timer = setTimeout(() => {
          events.off("message", onMessage);
          const seen = messages.map((m) => `${m.envelope.to.join(",")}: ${m.subject}`).join("; ") || "none";
          reject(new Error(`no matching mail within ${timeout} ms (received: ${seen})`));
        }, timeout);
        events.on("message", onMessage);
      });
    },
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

// parseMessage reads the mails the portal sends (kernel/mail: UTF-8,
// quoted-printable body, RFC 2047 encoded subject; a report's is
// multipart/mixed with base64 attachments, listed in attachments).
export function parseMessage(raw) {
  const m = parsePart(raw);
  const boundary = /multipart\/[^;]+;\s*boundary="?([^";]+)"?/i.exec(m.headers["content-type"] || "")?.[1];
  if (!boundary) return { ...m, attachments: [] };
  const parts = raw.split(`--${boundary}`).slice(1, -1).map((p) => parsePart(p.replace(/^\r\n/, "")));
  const body = parts.find((p) => !/attachment/i.test(p.headers["content-disposition"] || ""));
  const attachments = parts
    .filter((p) => p !== body)
    .map((p) => ({
      name: decodeHeader(/filename="([^"]+)"/.exec(p.headers["content-disposition"] || "")?.[1] || ""),
      contentType: (p.headers["content-type"] || "").split(";")[0],
      data: Buffer.from(p.rawBody.replace(/\s+/g, ""), "base64"),
    }));
  return { ...m, text: body ? body.text : "", attachments };
}

function parsePart(raw) {
  const split = raw.indexOf("\r\n\r\n");
  const head = split < 0 ? raw : raw.slice(0, split);
  const body = split < 0 ? "" : raw.slice(split + 4);
  const headers = {};
  for (const line of head.replace(/\r\n[ \t]+/g, " ").split("\r\n")) {
    const colon = line.indexOf(":");
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const encoding = (headers["content-transfer-encoding"] || "").toLowerCase();
  let text = body;
  if (encoding === "quoted-printable") text = decodeQuotedPrintable(body);
  else if (encoding === "base64") text = Buffer.from(body, "base64").toString("utf8");
  return { raw, headers, rawBody: body, subject: decodeHeader(headers.subject || ""), text: text.replace(/\r\n/g, "\n") };
}

function decodeQuotedPrintable(s) {
  const input = s.replace(/=\r?\n/g, "");
  const bytes = [];
  for (let i = 0; i < input.length; i++) {
    const hex = input.slice(i + 1, i + 3);
    if (input[i] === "=" && /^[0-9A-F]{2}$/i.test(hex)) {
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else {
      bytes.push(...Buffer.from(input[i], "utf8"));
    }
  }
  return Buffer.from(bytes).toString("utf8");
}

function decodeHeader(value) {
  return value.replace(/=\?([^?]+)\?([QB])\?([^?]*)\?=\s*/gi, (_, _charset, kind, text) =>
    kind.toUpperCase() === "B"
      ? Buffer.from(text, "base64").toString("utf8")
      : decodeQuotedPrintable(text.replace(/_/g, " ")),
  );
}
