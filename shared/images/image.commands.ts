// Image commands bound once: the image decider on stream image-<id>.
import { deciderCommandHandler } from "../commands/decider-command-handler.ts";
import type { ImageId } from "../kernel/ids.ts";
import { imageDecider, imageEventSchemas, imageStream } from "./image.decider.ts";

export const imageCommands = deciderCommandHandler({
  decider: imageDecider,
  streamOf: (id: ImageId) => imageStream(id),
  eventSchemas: imageEventSchemas,
});
