import { describe, expect, it } from "vitest";
import { decodeHeaderValue, parseMimeMessage } from "./mime-message.ts";

const message = (...lines: string[]) => lines.join("\r\n");

describe("reading a received message", () => {
  it("decodes Q and B encoded words, dropping the space between adjacent ones", () => {
    expect(decodeHeaderValue("=?UTF-8?Q?Hi_Bcc=3A_victim=40example=2Ecom_=C3=BCn?= =?UTF-8?Q?=C3=AF?=")).toBe(
      "Hi Bcc: victim@example.com ünï",
    );
    expect(decodeHeaderValue("=?utf-8?B?w7xu?= =?utf-8?B?w68=?= and plain")).toBe("ünï and plain");
  });

  it("keeps a multibyte character split across two encoded words whole", () => {
    expect(decodeHeaderValue("=?UTF-8?Q?=C3?= =?UTF-8?Q?=BC?=")).toBe("ü");
  });

  it("lower-cases header names, unfolds values and decodes a quoted-printable body", () => {
    const parsed = parseMimeMessage(
      message(
        "From: Workspace <no-reply@workspace.invalid>",
        "Subject: =?UTF-8?Q?Line_one?=",
        " =?UTF-8?Q?_continued?=",
        "Content-Type: text/plain; charset=utf-8",
        "Content-Transfer-Encoding: quoted-printable",
        "",
        "Line one",
        "Line two =E2=80=94 a long line that was softly=",
        " broken",
        "",
      ),
    );
    expect(parsed.headers).toEqual([
      ["from", "Workspace <no-reply@workspace.invalid>"],
      ["subject", "Line one continued"],
      ["content-type", "text/plain; charset=utf-8"],
      ["content-transfer-encoding", "quoted-printable"],
    ]);
    expect(parsed.text).toBe("Line one\nLine two — a long line that was softly broken");
  });

  it("decodes a base64 body and leaves an 8bit one as it came", () => {
    const base64 = parseMimeMessage(
      message("Content-Transfer-Encoding: base64", "", Buffer.from("Zwei\r\nZeilen — ü").toString("base64"), ""),
    );
    expect(base64.text).toBe("Zwei\nZeilen — ü");
    const eightBit = parseMimeMessage(message("Content-Transfer-Encoding: 8bit", "", "ü\r\nx", ""));
    expect(eightBit.text).toBe("ü\nx");
  });

  it("reads the text and HTML parts of a multipart/alternative message", () => {
    const parsed = parseMimeMessage(
      message(
        'Content-Type: multipart/alternative; boundary="b"',
        "",
        "--b",
        "Content-Type: text/plain; charset=utf-8",
        "",
        "Plain words",
        "--b",
        "Content-Type: text/html; charset=utf-8",
        "Content-Transfer-Encoding: quoted-printable",
        "",
        "<p>Rich =C3=BC</p>",
        "--b--",
        "",
      ),
    );
    expect(parsed.text).toBe("Plain words");
    expect(parsed.html).toBe("<p>Rich ü</p>");
  });

  it("refuses other multipart messages rather than misreading them", () => {
    expect(() => parseMimeMessage(message('Content-Type: multipart/mixed; boundary="b"', "", "--b", ""))).toThrow(
      /multipart/,
    );
  });
});
