import { describe, expect, it } from "vitest";
import { z } from "zod";
import { serializerCompiler } from "../../../shared/http/response-serializer.ts";

describe("response serializer", () => {
  it("writes only the fields a response schema declares", () => {
    const schema = z.object({ id: z.uuid(), name: z.string(), icon: z.string().nullable(), tags: z.array(z.string()) });
    const serialize = serializerCompiler({ schema, method: "GET", url: "/x", httpStatus: "200" });
    const out = serialize({
      id: "6f1c1f0e-8a4b-4c53-9a53-0d0c7c1f2a10",
      name: "a",
      icon: null,
      tags: ["t"],
      secretHash: "leak",
    });
    expect(JSON.parse(out)).toEqual({ id: "6f1c1f0e-8a4b-4c53-9a53-0d0c7c1f2a10", name: "a", icon: null, tags: ["t"] });
  });
});
