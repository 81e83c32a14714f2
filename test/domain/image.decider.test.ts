import { describe, expect, it } from "vitest";
import { imageDecider, type UploadedImage } from "../../shared/images/image.decider.ts";
import { imageMarkdown } from "../../shared/images/image.resource.ts";
import { imageIdSchema, pageIdSchema, userIdSchema } from "../../shared/kernel/ids.ts";
import { deciderSpec } from "../support/decider-spec.ts";

const { given } = deciderSpec(imageDecider);

const image: UploadedImage = {
  imageId: imageIdSchema.parse("5c3d1e2f-4a5b-4c6d-8e7f-9a0b1c2d3e4f"),
  pageId: pageIdSchema.parse("0b7c3a52-1d4e-4f6a-8b9c-2e3f4a5b6c7d"),
  uploaderId: userIdSchema.parse("3d2a4c1e-5b6f-4a7b-8c9d-0e1f2a3b4c5d"),
  filename: "5c3d1e2f-4a5b-4c6d-8e7f-9a0b1c2d3e4f.png",
  originalName: "sketch.png",
  mimeType: "image/png",
  size: 1024,
  width: 10,
  height: 10,
  alt: "a sketch",
  sha256: "b".repeat(64),
};

describe("image decider", () => {
  it("records an upload once; the same image id again is a conflict", () => {
    given([])
      .when({ type: "RecordImageUpload", image })
      .then([{ type: "ImageUploaded", data: image }]);
    given([{ type: "ImageUploaded", data: image }])
      .when({ type: "RecordImageUpload", image })
      .thenRefuses("conflict");
  });
});

describe("image markdown", () => {
  it("escapes every markdown punctuation mark of the alt text and keeps the rest as written", () => {
    expect(imageMarkdown("Café au lait", "/i/1")).toBe("![Café au lait](/i/1)");
    expect(imageMarkdown("a]b[c\\d*e_f`g<h", "/i/1")).toBe("![a\\]b\\[c\\\\d\\*e\\_f\\`g\\<h](/i/1)");
  });
});
