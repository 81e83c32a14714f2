// What a sealing rule is: whose key seals an event's fields, and which fields, each with what it reads as
// once that key is destroyed. The rules themselves are in sealed-fields.ts and sealed-content.ts.
import type { EventMetadata } from "../event-store/event-store.port.ts";

export interface SealedField {
  readonly field: string;
  /** `text` seals a string as it is; `json` seals any JSON value as its JSON text. */
  readonly kind: "text" | "json";
  readonly erased: unknown;
}

export interface SealingRule {
  /** The subject whose key seals the event's fields; `addressHash` gives an address's keyed hash. */
  subject(data: Readonly<Record<string, unknown>>, metadata: EventMetadata, addressHash: (address: string) => string): string | null;
  readonly fields: readonly SealedField[];
}
