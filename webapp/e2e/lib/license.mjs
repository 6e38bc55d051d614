// License files for the portals under test, signed with a key pair made for
// this test process (never Fieldhub's own key): the portal verifies them with
// FIELDHUB_LICENSE_PUBLIC_KEY. The layout is docs/license.md's, to the byte.
import { generateKeyPairSync, sign } from "node:crypto";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const { publicKey, privateKey } = generateKeyPairSync("ed25519");
// The raw 32-byte public key is the end of its DER (SPKI) form.
const PUBLIC_KEY = publicKey.export({ format: "der", type: "spki" }).subarray(-32).toString("base64");

/** The terms a portal runs under unless a test names others: no company limit, no white-label. */
export const TEST_TERMS = { email: "e2e@fieldhub.test", name: "Fieldhub browser tests", maxCompanies: 0, decoderIncluded: true, whiteLabel: false };

/**
 * licenseFile returns the text of a license file of terms, signed with the
 * test key.
 * @param {{email?: string, name?: string, maxCompanies?: number, decoderIncluded?: boolean, whiteLabel?: boolean}} terms
 */
export function licenseFile(terms) {
  const t = { ...TEST_TERMS, ...terms };
  // The field order of the portal's own terms; the signature covers these bytes.
  const json = JSON.stringify({ email: t.email, name: t.name, maxCompanies: t.maxCompanies, decoderIncluded: t.decoderIncluded, whiteLabel: t.whiteLabel });
  const signature = sign(null, Buffer.from(json), privateKey).toString("base64");
  return `{\n  "terms": ${json},\n  "signature": "${signature}"\n}\n`;
}

/**
 * licenseEnv writes a license file of terms and returns the options that
 * make a portal run under it: startFieldhub({ env: licenseEnv({ whiteLabel: true }) }).
 */
export function licenseEnv(terms = {}) {
  const path = join(mkdtempSync(join(tmpdir(), "fieldhub-e2e-license-")), "license.json");
  writeFileSync(path, licenseFile(terms));
  return { FIELDHUB_LICENSE_FILE: path, FIELDHUB_LICENSE_PUBLIC_KEY: PUBLIC_KEY };
}
