import { describe, expect, it } from "vitest";
import { attachmentDecider, type UploadedAttachment } from "../../shared/attachments/attachment.decider.ts";
import { contentDisposition } from "../../shared/attachments/attachment.resource.ts";
import { rangeOf } from "../../shared/attachments/byte-range.ts";
import { fileTypeOf, servingOf } from "../../shared/attachments/file-type.ts";
import { attachmentIdSchema, pageIdSchema, userIdSchema } from "../../shared/kernel/ids.ts";
import { deciderSpec } from "../support/decider-spec.ts";

const { given } = deciderSpec(attachmentDecider);

const pageId = pageIdSchema.parse("0b7c3a52-1d4e-4f6a-8b9c-2e3f4a5b6c7d");
const attachment: UploadedAttachment = {
  attachmentId: attachmentIdSchema.parse("5c3d1e2f-4a5b-4c6d-8e7f-9a0b1c2d3e4f"),
  pageId,
  uploaderId: userIdSchema.parse("3d2a4c1e-5b6f-4a7b-8c9d-0e1f2a3b4c5d"),
  filename: "report.pdf",
  originalName: "report.pdf",
  mimeType: "application/pdf",
  size: 1024,
  sha256: "b".repeat(64),
};
const uploaded = { type: "AttachmentUploaded" as const, data: attachment };
const deleted = {
  type: "AttachmentDeleted" as const,
  data: { attachmentId: attachment.attachmentId, pageId, filename: "report.pdf" },
};

describe("attachment decider", () => {
  it("records an upload once; the same id again is a conflict", () => {
    given([]).when({ type: "RecordAttachmentUpload", attachment }).then([uploaded]);
    given([uploaded]).when({ type: "RecordAttachmentUpload", attachment }).thenRefuses("conflict");
  });

  it("records new bytes of a live attachment of its page as AttachmentReplaced; the same bytes record nothing", () => {
    const replacement = { ...attachment, size: 2048, sha256: "c".repeat(64) };
    const replaced = { type: "AttachmentReplaced" as const, data: replacement };
    given([uploaded]).when({ type: "RecordAttachmentReplacement", attachment: replacement }).then([replaced]);
    given([uploaded, replaced]).when({ type: "RecordAttachmentReplacement", attachment: replacement }).then([]);
    given([uploaded, deleted])
      .when({ type: "RecordAttachmentReplacement", attachment: replacement })
      .thenRefuses("not_found");
    given([]).when({ type: "RecordAttachmentReplacement", attachment: replacement }).thenRefuses("not_found");
  });

  it("deletes a live attachment of the page named; another page's, a deleted one or none is not found", () => {
    given([uploaded]).when({ type: "DeleteAttachment", pageId }).then([deleted]);
    given([uploaded])
      .when({ type: "DeleteAttachment", pageId: "11111111-1111-4111-8111-111111111111" })
      .thenRefuses("not_found");
    given([uploaded, deleted]).when({ type: "DeleteAttachment", pageId }).thenRefuses("not_found");
    given([]).when({ type: "DeleteAttachment", pageId }).thenRefuses("not_found");
  });
});

describe("an attachment's type and how it is served", () => {
  const head = (text: string, ...bytes: number[]) => Buffer.concat([Buffer.from(bytes), Buffer.from(text, "latin1")]);
  it.each([
    [head("%PDF-1.4"), "x", "application/pdf"],
    [head("ID3\u0004"), "x", "audio/mpeg"],
    [head("", 0xff, 0xfb, 0x90), "x", "audio/mpeg"],
    [head("OggS"), "x", "audio/ogg"],
    [head("fLaC"), "x", "audio/flac"],
    [head("RIFF\u0000\u0000\u0000\u0000WAVEfmt "), "x", "audio/wav"],
    [head("\u0000\u0000\u0000\u0020ftypisom"), "x", "video/mp4"],
    [head("\u0000\u0000\u0000\u0020ftypM4A "), "x", "audio/mp4"],
    [head("", 0x1a, 0x45, 0xdf, 0xa3), "x", "video/webm"],
    [head("PK\u0003\u0004"), "deck.pptx", "application/vnd.openxmlformats-officedocument.presentationml.presentation"],
    [head("PK\u0003\u0004"), "x.bin", "application/zip"],
    [head("GIF89a"), "x", "image/gif"],
    [head("notes"), "notes.TXT", "text/plain"],
    [head("<svg/>"), "x.svg", "application/octet-stream"],
    [head("<html>"), "x.html", "application/octet-stream"],
    [head("hello"), "x.pdf", "application/octet-stream"],
  ])("reads %s named %s as %s", (bytes, name, type) => {
    expect(fileTypeOf(bytes, name)).toBe(type);
  });

  it("shows PDFs, audio, video and raster images inline and makes everything else a download, never as a type a browser runs", () => {
    expect(servingOf("application/pdf")).toEqual({ contentType: "application/pdf", disposition: "inline" });
    expect(servingOf("video/mp4")).toEqual({ contentType: "video/mp4", disposition: "inline" });
    expect(servingOf("text/csv")).toEqual({ contentType: "text/csv", disposition: "attachment" });
    for (const risky of [
      "text/html",
      "image/svg+xml",
      "application/xml",
      "text/javascript",
      "application/octet-stream",
    ]) {
      expect(servingOf(risky)).toEqual({ contentType: "application/octet-stream", disposition: "attachment" });
    }
  });

  it("names the file in Content-Disposition with an ASCII fallback and its exact UTF-8 name", () => {
    expect(contentDisposition("attachment", 'Ünïcode "quoted"; name.pdf')).toBe(
      `attachment; filename="_n_code _quoted__ name.pdf"; filename*=UTF-8''%C3%9Cn%C3%AFcode%20%22quoted%22%3B%20name.pdf`,
    );
  });

  it("reads one byte range, ignores what it cannot read, and finds a start past the end unsatisfiable", () => {
    expect(rangeOf(undefined, 100)).toEqual({ kind: "whole" });
    expect(rangeOf("bytes=0-9", 100)).toEqual({ kind: "part", start: 0, end: 9 });
    expect(rangeOf("bytes=90-", 100)).toEqual({ kind: "part", start: 90, end: 99 });
    expect(rangeOf("bytes=-10", 100)).toEqual({ kind: "part", start: 90, end: 99 });
    expect(rangeOf("bytes=-1000", 100)).toEqual({ kind: "part", start: 0, end: 99 });
    expect(rangeOf("bytes=50-5000", 100)).toEqual({ kind: "part", start: 50, end: 99 });
    expect(rangeOf("bytes=0-1,5-6", 100)).toEqual({ kind: "whole" });
    expect(rangeOf("items=0-1", 100)).toEqual({ kind: "whole" });
    expect(rangeOf("bytes=9-2", 100)).toEqual({ kind: "whole" });
    expect(rangeOf("bytes=100-", 100)).toEqual({ kind: "unsatisfiable" });
    expect(rangeOf("bytes=-0", 100)).toEqual({ kind: "unsatisfiable" });
    expect(rangeOf("bytes=0-", 0)).toEqual({ kind: "unsatisfiable" });
  });
});
