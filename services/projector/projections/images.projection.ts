// ImageUploaded into the images read model.
import type { StoredEvent } from "../../../shared/events.ts";
import type { ImageEvent } from "../../../shared/images/image.decider.ts";
import type { ProjectionWriters } from "../../../shared/read-store/read-store.port.ts";

export async function projectImage<Tx>(
  { event, metadata }: StoredEvent<ImageEvent>,
  writers: ProjectionWriters<Tx>,
  tx: Tx,
): Promise<void> {
  const { imageId, ...image } = event.data;
  return writers.images.put(tx, { id: imageId, ...image, createdAt: metadata.occurredAt });
}
