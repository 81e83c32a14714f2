// The image record clients see (docs/guide/images.md), and the markdown that shows it.
import { z } from "zod";
import { imageMimeTypeSchema } from "./image.decider.ts";
import type { ImageRecord } from "./images.view.ts";

export const imageResource = z
  .object({
    id: z.uuid(),
    url: z.string(),
    markdown: z.string(),
    filename: z.string(),
    originalName: z.string(),
    mimeType: imageMimeTypeSchema,
    size: z.number().int(),
    width: z.number().int(),
    height: z.number().int(),
  })
  .meta({ id: "Image", description: "An uploaded image's record, with the markdown that shows it" });
export type ImageResource = z.infer<typeof imageResource>;

/** The upload form as the reference shows it; the route reads the parts as they stream and checks them itself. */
export const imageUploadForm = z.object({
  file: z.string().meta({
    format: "binary",
    description: "the image: JPEG, PNG, GIF or WebP, at most 10 MB (10 × 2^20 bytes); its type is read from the bytes",
  }),
  alt: z.string().max(1000).meta({ description: "alternative text, one line; may be empty for a decorative image" }),
});

/** Where the query API serves the bytes: a path on the API's own origin, so the markdown holds no host name. */
export const imageUrl = (imageId: string): string => `/api/v1/images/${imageId}`;

/**
 * The characters that could end the brackets or start markup inside them (`]`, `[`, `\\`, code, emphasis,
 * strikethrough, an autolink or HTML, an entity, an image, a table cell): each is backslash-escaped, which
 * CommonMark allows for any ASCII punctuation, so the text reads literally. Others (`:`, `/`, `(`) are safe there.
 */
const MARKDOWN_PUNCTUATION = /[\\[\]`*_~<&!|]/g;

/** Text shown literally inside a markdown link's or image's brackets. */
export function escapeMarkdownText(text: string): string {
  return text.replace(MARKDOWN_PUNCTUATION, (character) => `\\${character}`);
}

export function imageMarkdown(alt: string, url: string): string {
  return `![${escapeMarkdownText(alt)}](${url})`;
}

export function toImageResource(image: ImageRecord): ImageResource {
  const url = imageUrl(image.id);
  return {
    id: image.id,
    url,
    markdown: imageMarkdown(image.alt, url),
    filename: image.filename,
    originalName: image.originalName,
    mimeType: image.mimeType,
    size: image.size,
    width: image.width,
    height: image.height,
  };
}
