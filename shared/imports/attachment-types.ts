// The files of a vault that are not notes nor accepted images, named by what they are, so that a skipped file or
// embed is reported with its real reason. SVG is refused, not rasterised: an SVG can hold scripts and external
// references, and served as an image it would run them; only the raster types of uploads are accepted.
import { posix } from "node:path";

const KINDS: ReadonlyArray<readonly [RegExp, string]> = [
  [/^svgz?$/, "SVG is not an accepted image type"],
  [/^(?:mp3|wav|m4a|ogg|oga|flac|aac|opus|3gp)$/, "audio files are not imported"],
  [/^(?:mp4|webm|mov|mkv|ogv|avi|m4v)$/, "video files are not imported"],
  [/^pdf$/, "PDF files are not imported"],
  [/^(?:bmp|tiff?|heic|heif|avif|ico)$/, "only PNG, JPEG, GIF and WebP images are imported"],
  [/^(?:canvas|excalidraw)$/, "Obsidian canvases and drawings are not imported"],
];

/** Why a file (or a link to one) named so is not imported, or null when its name says nothing against it. */
export function attachmentProblem(name: string): string | null {
  const extension = posix.extname(name).slice(1).toLowerCase();
  if (extension === "" || extension === "md") return null;
  for (const [pattern, problem] of KINDS) if (pattern.test(extension)) return problem;
  return null;
}
