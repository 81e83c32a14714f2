// Reads a received message as a mail program would show it: headers unfolded and their encoded words decoded,
// the body decoded from quoted-printable or base64; of a multipart/alternative message, the text/plain and
// text/html parts. Enough for what our mailers send; other multipart kinds are refused rather than misread.

export interface MimeMessage {
  /** Header names lower-cased with their decoded values, in order. */
  readonly headers: readonly (readonly [name: string, value: string])[];
  readonly text: string;
  /** The text/html alternative, when the message has one. */
  readonly html: string | null;
}

const decode = (bytes: Uint8Array, charset: string): string => new TextDecoder(charset).decode(bytes);

function quotedPrintableBytes(encoded: string, underscoreIsSpace: boolean): Uint8Array {
  const bytes: number[] = [];
  for (let i = 0; i < encoded.length; i++) {
    const char = encoded[i] ?? "";
    const hex = encoded.slice(i + 1, i + 3);
    if (char === "=" && /^[0-9A-Fa-f]{2}$/.test(hex)) {
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else if (char === "_" && underscoreIsSpace) {
      bytes.push(0x20);
    } else {
      bytes.push(...Buffer.from(char, "utf8"));
    }
  }
  return Uint8Array.from(bytes);
}

const encodedWord = /=\?([^?]+)\?([QqBb])\?([^?]*)\?=/g;

/** RFC 2047: adjacent encoded words join without the space between them, and their bytes decode together. */
export function decodeHeaderValue(value: string): string {
  const joined = value.replace(/(\?=)\s+(?==\?)/g, "$1");
  return joined.replace(/(?:=\?[^?]+\?[QqBb]\?[^?]*\?=)+/g, (run) => {
    const words = [...run.matchAll(encodedWord)];
    const charset = words[0]?.[1] ?? "utf-8";
    const bytes = words.flatMap(([, , encoding = "", text = ""]) =>
      Array.from(encoding.toUpperCase() === "B" ? Buffer.from(text, "base64") : quotedPrintableBytes(text, true)),
    );
    return decode(Uint8Array.from(bytes), charset);
  });
}

function decodeBody(body: string, transferEncoding: string, charset: string): string {
  switch (transferEncoding.toLowerCase()) {
    case "quoted-printable":
      return decode(quotedPrintableBytes(body.replace(/=\r\n/g, ""), false), charset);
    case "base64":
      return decode(Buffer.from(body.replace(/\s+/g, ""), "base64"), charset);
    default:
      return body;
  }
}

function partsOf(body: string, boundary: string): string[] {
  const delimiter = `--${boundary}`;
  const end = body.indexOf(`${delimiter}--`);
  return (end === -1 ? body : body.slice(0, end))
    .split(delimiter)
    .slice(1)
    .map((part) => part.replace(/^\r\n/, "").replace(/\r\n$/, ""));
}

export function parseMimeMessage(raw: string): MimeMessage {
  const split = raw.indexOf("\r\n\r\n");
  const head = split === -1 ? raw : raw.slice(0, split);
  const body = split === -1 ? "" : raw.slice(split + 4);
  const headers = head
    .replace(/\r\n(?=[ \t])/g, "")
    .split("\r\n")
    .filter((line) => line.includes(":"))
    .map((line) => {
      const colon = line.indexOf(":");
      return [line.slice(0, colon).trim().toLowerCase(), decodeHeaderValue(line.slice(colon + 1).trim())] as const;
    });
  const header = (name: string) => headers.find(([key]) => key === name)?.[1] ?? "";
  const contentType = header("content-type");
  if (/^multipart\/alternative/i.test(contentType)) {
    const boundary = /boundary="?([^";]+)"?/i.exec(contentType)?.[1];
    if (!boundary) throw new Error("a multipart message without a boundary");
    const parts = partsOf(body, boundary).map((part) => ({
      part,
      type: /^content-type:\s*([^;\r\n]+)/im.exec(part)?.[1]?.toLowerCase() ?? "text/plain",
    }));
    const plain = parts.find((part) => part.type === "text/plain");
    const html = parts.find((part) => part.type === "text/html");
    return {
      headers,
      text: plain ? parseMimeMessage(plain.part).text : "",
      html: html ? parseMimeMessage(html.part).text : null,
    };
  }
  if (/^multipart\//i.test(contentType)) throw new Error("only multipart/alternative messages are parsed here");
  const charset = /charset="?([^";\s]+)/i.exec(contentType)?.[1] ?? "utf-8";
  // The line break that ends the last line belongs to the transfer, not to the text.
  const text = decodeBody(body.replace(/\r\n$/, ""), header("content-transfer-encoding"), charset).replace(
    /\r\n/g,
    "\n",
  );
  return { headers, text, html: null };
}
