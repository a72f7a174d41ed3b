/**
 * A token and bridge-device writer in its own process, for the race test:
 * `secret-writer.ts TOKEN_FILE DEVICE_FILE NAME MIN_MS MIN_OPS` alternates `TokenStore.create` /
 * `DeviceStore.add` with revocations of its own oldest live entries (keeping at most 3 live devices
 * per writer, so four writers stay under MAX_DEVICES and no device is dropped for age), until both
 * MIN_MS have passed and MIN_OPS operations were made. Prints one line per completed operation:
 * `token+ ID PLAINTEXT`, `token- ID PLAINTEXT`, `device+ ID PLAINTEXT`, `device- ID PLAINTEXT`.
 */
import { DeviceStore } from "../../../src/bridge/credentials.js";
import { TokenStore } from "../../../src/mcp/tokens.js";
import { systemClock } from "../../../src/util/clock.js";

const [tokenFile, deviceFile, name, minMsText, minOpsText] = process.argv.slice(2);
if (!tokenFile || !deviceFile || !name || !minMsText || !minOpsText)
  throw new Error("usage: secret-writer.ts TOKEN_FILE DEVICE_FILE NAME MIN_MS MIN_OPS");
const tokens = new TokenStore(tokenFile, systemClock);
const devices = new DeviceStore(deviceFile, systemClock);
const liveTokens: { id: string; token: string }[] = [];
const liveDevices: { id: string; credential: string }[] = [];
const started = Date.now();
const say = (line: string) => process.stdout.write(`${line}\n`);
let ops = 0;
for (let i = 0; Date.now() - started < Number(minMsText) || ops < Number(minOpsText); i++) {
  const { info, token } = await tokens.create(`${name}-${i}`);
  liveTokens.push({ id: info.id, token });
  say(`token+ ${info.id} ${token}`);
  if (i % 2 === 1) {
    const gone = liveTokens.shift();
    if (gone) {
      await tokens.revoke(gone.id);
      say(`token- ${gone.id} ${gone.token}`);
    }
  }
  const added = await devices.add();
  liveDevices.push({ id: added.info.id, credential: added.credential });
  say(`device+ ${added.info.id} ${added.credential}`);
  if (liveDevices.length > 2) {
    const gone = liveDevices.shift();
    if (gone) {
      await devices.revoke(gone.id);
      say(`device- ${gone.id} ${gone.credential}`);
    }
  }
  ops += 4;
}
