// What a sealing rule is: whose key seals an event's fields, and which fields, each with what it reads as
// once that key is destroyed; and the decision every event type of the domain union must make, typed so that a
// new event type without one, or a rule naming a field its event does not have, does not compile. The rules
// themselves are in sealed-fields.ts and sealed-content.ts.
import type { EventMetadata } from "../event-store/event-store.port.ts";
import type { DomainEvent, DomainEventType } from "../events.ts";

/** Event data as the store holds it on append: not validated again, so read field by field. */
type StoredData = Readonly<Record<string, unknown>>;
type FieldOf<Data> = keyof Data & string;

/**
 * A field sealed under the rule's subject, with the value of its own type it reads as once erased. `text` seals
 * a string as it is (so only a field holding a string, or nothing, may be `text`: any other value would be left
 * in the clear); `json` seals any JSON value as its JSON text.
 */
export type SealedField<Data = StoredData> = {
  readonly [Field in FieldOf<Data>]: {
    readonly field: Field;
    readonly kind: unknown extends Data[Field]
      ? "text" | "json"
      : Data[Field] extends string | null | undefined
        ? "text" | "json"
        : "json";
    readonly erased: Data[Field];
  };
}[FieldOf<Data>];

/**
 * Whose key seals an event's fields: the subject one of its data's fields names (a non-empty string; none
 * otherwise, and the event is stored as it is), or one computed from the event as appended. `addressHash` gives
 * an address's keyed hash.
 */
type SealingSubject<Data = StoredData> =
  | { readonly named: FieldOf<Data>; readonly by: (value: string, addressHash: (address: string) => string) => string }
  | ((data: StoredData, metadata: EventMetadata, addressHash: (address: string) => string) => string | null);

/** An event type's rule, its field names checked against its data. */
export interface SealingRule<Data> {
  readonly subject: SealingSubject<Data>;
  readonly fields: readonly SealedField<Data>[];
}

/**
 * A rule as the sealing store applies it, to data it does not validate again: by plain field names. (Not a
 * `SealingRule<StoredData>`: the compiler reads SealingRule as invariant in its data, as a rule over fewer fields
 * cannot stand for one over more.)
 */
export interface AppliedSealingRule {
  readonly subject: SealingSubject;
  readonly fields: readonly SealedField[];
}

/** What an event type declares when none of its fields holds personal data or content. */
export const NO_PERSONAL_DATA = "no personal data";

type EventData<Type extends DomainEventType> = Extract<DomainEvent, { type: Type }>["data"];

/** Every event type's decision, each rule checked against that event's own data. */
export type SealingRules = {
  readonly [Type in DomainEventType]: SealingRule<EventData<Type>> | typeof NO_PERSONAL_DATA;
};

/** The subject whose key seals an event's fields, or null when its data names none. */
export function subjectOf(
  rule: AppliedSealingRule,
  data: StoredData,
  metadata: EventMetadata,
  addressHash: (address: string) => string,
): string | null {
  const { subject } = rule;
  if (typeof subject === "function") return subject(data, metadata, addressHash);
  const value = data[subject.named];
  return typeof value === "string" && value.length > 0 ? subject.by(value, addressHash) : null;
}
