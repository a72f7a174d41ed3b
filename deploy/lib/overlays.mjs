// Prints the config.txt lines a rig profile needs (the body of deploy.sh's marked block).
// Usage: node deploy/lib/overlays.mjs PROFILE.yaml
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";

// `yaml` from the checkout's dependencies (the workstation builds PiClaw, so it has them).
const require = createRequire(new URL("../../package.json", import.meta.url));
const { parse } = require("yaml");

const profile = parse(readFileSync(process.argv[2], "utf8")) ?? {};
const lines = ["# Camera Module on the CSI connector (rpicam-vid)", "camera_auto_detect=1"];

// A GRBL/FluidNC board on the GPIO UART (a USB board needs nothing here).
const port = String(profile.serial?.port ?? "");
if (profile.backend === "grbl" && /serial0|ttyAMA|ttyS0/.test(port)) {
  lines.push("# GRBL/FluidNC on the GPIO UART", "enable_uart=1");
}

// The stylus solenoid on a hardware PWM pin: GPIO12/13 are ALT0 (func 4), GPIO18/19 ALT5 (func 2).
const pwmFunc = { 12: 4, 13: 4, 18: 2, 19: 2 };
const pin = profile.gpio?.pins?.solenoid;
if (profile.stylus?.driver === "gpio-pwm" && pin !== undefined) {
  const func = pwmFunc[pin];
  if (func === undefined) {
    process.stderr.write(`overlays: GPIO${pin} has no hardware PWM (use 12, 13, 18 or 19)\n`);
    process.exit(1);
  }
  lines.push(`# stylus solenoid: hardware PWM on GPIO${pin}`, `dtoverlay=pwm,pin=${pin},func=${func}`);
}
process.stdout.write(`${lines.join("\n")}\n`);
