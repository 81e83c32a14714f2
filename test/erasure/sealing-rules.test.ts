// Every event type of the domain union has decided what it seals: a rule naming fields of its own data, or that
// it carries no personal data. The compiler holds this over the union's types (shared/erasure/sealing-rule.ts);
// the first test holds it over the zod schemas' list, so a missing decision fails by name, and the type-level
// cases show what the compiler refuses.
import { describe, expect, it } from "vitest";
import { subjects } from "../../shared/erasure/key-store.port.ts";
import { sealingRuleOf, sealingRules } from "../../shared/erasure/sealed-fields.ts";
import { NO_PERSONAL_DATA, type SealingRules } from "../../shared/erasure/sealing-rule.ts";
import { domainEventSchema, type DomainEventType } from "../../shared/events.ts";

const schemas = domainEventSchema.options.map((option) => ({
  type: option.shape.type.value,
  fields: Object.keys(option.shape.data.shape),
}));

/** A decision as sealed-fields.ts declares one, checked by the compiler against the event type's data. */
const decision = <Type extends DomainEventType>(_type: Type, declared: SealingRules[Type]): SealingRules[Type] =>
  declared;

describe("personal-data rules", () => {
  it("every event type of the domain union declares its rule or that it carries no personal data", () => {
    const undecided = schemas.map(({ type }) => type).filter((type) => !Object.hasOwn(sealingRules, type));
    expect(undecided, "event types with no decision in shared/erasure/sealed-fields.ts (or sealed-content.ts)").toEqual(
      [],
    );
  });

  it("decide only for event types of the union, and name only fields of that event's data", () => {
    const fieldsOf = new Map<string, readonly string[]>(schemas.map(({ type, fields }) => [type, fields]));
    expect(Object.keys(sealingRules).filter((type) => !fieldsOf.has(type))).toEqual([]);
    const unknownFields = schemas.flatMap(({ type, fields }) => {
      const rule = sealingRuleOf(type);
      if (rule === null) return [];
      const named = [
        ...rule.fields.map(({ field }) => field),
        ...(typeof rule.subject === "function" ? [] : [rule.subject.named]),
      ];
      return named.filter((field) => !fields.includes(field)).map((field) => `${type}.${field}`);
    });
    expect(unknownFields).toEqual([]);
  });

  it("seal the identity, content and settings events, and leave the others as they are", () => {
    const sealed = schemas.map(({ type }) => type).filter((type) => sealingRuleOf(type) !== null);
    expect(sealed).toEqual(
      expect.arrayContaining([
        "UserRegistered",
        "InvitationQueued",
        "TokenCreated",
        "WebhookCreated",
        "PageCreated",
        "CommentAdded",
        "FolderCreated",
      ]),
    );
    expect(sealingRuleOf("TokenUsed")).toBeNull();
    expect(sealingRuleOf("NoSuchEvent")).toBeNull();
  });

  it("do not compile with a field the event does not have, the wrong erased type, or text sealing a value that is not a string", () => {
    const ofUser = { named: "userId", by: subjects.user } as const;
    expect(
      decision("TokenCreated", { subject: ofUser, fields: [{ field: "name", kind: "text", erased: "Erased token" }] }),
    ).not.toBe(NO_PERSONAL_DATA);
    // @ts-expect-error TokenCreated's data has no `title`
    decision("TokenCreated", { subject: ofUser, fields: [{ field: "title", kind: "text", erased: "" }] });
    // @ts-expect-error TokenUsed's data names no user
    decision("TokenUsed", { subject: ofUser, fields: [] });
    // @ts-expect-error a token's name is a string: it cannot read as null once erased
    decision("TokenCreated", { subject: ofUser, fields: [{ field: "name", kind: "text", erased: null }] });
    // @ts-expect-error scopes are a list: sealed as text they would be left in the clear
    decision("TokenCreated", { subject: ofUser, fields: [{ field: "scopes", kind: "text", erased: [] }] });
    const { TokenUsed: _decided, ...withoutOne } = sealingRules;
    // @ts-expect-error TokenUsed has no decision
    const undecided: SealingRules = withoutOne;
    expect(Object.keys(undecided)).not.toContain("TokenUsed");
  });
});
