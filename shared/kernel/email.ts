// An email address as every boundary takes it (shares, invitations, session claims): valid syntax within RFC
// 5321's limits, a local part of at most 64 octets and an address of at most 254, counted in UTF-8 octets.
import { z } from "zod";

const LOCAL_PART_MAX_OCTETS = 64;
const ADDRESS_MAX_OCTETS = 254;

const octets = (text: string): number => Buffer.byteLength(text, "utf8");
const localPart = (address: string): string => address.slice(0, address.lastIndexOf("@"));

export const emailAddress = z
  .email()
  .refine((address) => octets(address) <= ADDRESS_MAX_OCTETS, `must be at most ${ADDRESS_MAX_OCTETS} octets (RFC 5321)`)
  .refine(
    (address) => octets(localPart(address)) <= LOCAL_PART_MAX_OCTETS,
    `the part before @ must be at most ${LOCAL_PART_MAX_OCTETS} octets (RFC 5321)`,
  );
