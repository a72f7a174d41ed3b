/**
 * The `piclaw` usage texts, one block per command. Kept apart from the commands so `piclaw --help` and
 * `piclaw CMD --help` load nothing else (the CLI imports a command's module only to run it).
 */

/** Usage lines per command name, in the order `piclaw --help` prints them. */
export const COMMAND_USAGE: Readonly<Record<string, string>> = {
  start: `  start                     run the appliance (on the simulated rig when rig.backend is sim)
`,
  calibrate: `  calibrate                 fit camera↔screen and screen↔arm, validate with taps, write the bundle
                            (a running daemon does it, and uses the new bundle at once)
      --check               re-validate the stored bundle with fresh random taps (no refit)
`,
  sim: `  sim snapshot              write one simulated camera frame and/or the phone's screen
      --out FILE            camera frame as JPEG (default frame.jpg when --screen is not given)
      --screen FILE         the phone's own screen as PNG
      --width N --height N  frame size (default: sim.camera.width/height)
`,
  listing: `  listing IMAGE…            print the listing the agent would read for phone screenshots (no rig, no daemon)
      --json                one JSON line per image: { "image", "entries": [ { "id", "kind", "label",
                            "box": [l,t,r,b], "conf", … } ] }
      --camera --homography FILE
                            the images are camera frames; FILE holds { "screenToCamera": [9 numbers] }
                            or is a calibration bundle (<stateDir>/calibration/bundle.json)
`,
  config: `  config validate [FILE]    check a config file and print the problems
  config show               print the effective config (secrets redacted)
  config doc                print the configuration reference (Markdown)
`,
  token: `  token create              create a bearer token for MCP clients (printed once, stored hashed)
      --label NAME          a name for it (default token-<id>)
  token list                list tokens (ids and labels, never the secrets)
  token revoke ID|LABEL     revoke a token
  token show                print the token (and bridge pair code) the SD image made at first boot
`,
  bridge: `  bridge pair               print a one-time code that pairs the phone's bridge page (10 min)
  bridge devices            list paired phones
  bridge revoke ID|all      unpair a phone (or every phone)
`,
  sessions: `  sessions list [N]         the N newest agent sessions (default 20): id, start, status, turns, recap
  sessions show ID          one session: summary, notes and tool calls in order, image files
`,
  jobs: `  jobs list                 list the jobs in jobs.md (and any malformed ones)
  jobs add                  add a job: --id ID --schedule "0 8 * * *" --description TEXT
      [--type periodic|one-time] [--context TEXT (the agent's brief; default: the description)]
  jobs validate [FILE]      check jobs.md (or FILE); prints FILE:LINE: reason, exit 1 on problems
  jobs fire ID              fire a job at the runtime's next check (within a second of piclaw start)
  jobs cancel ID            cancel a job
`,
  run: `  run "TASK"                start one agent session now and stream its notes (via the running daemon,
                            or in this process when none is running); exit 0 on DONE/IDLE/WAIT
`,
  say: `  say "TEXT"                pass a message to the running session (it reaches the model next turn)
`,
  abort: `  abort                     abort the running session (the arm lifts and parks)
`,
  doctor: `  doctor                    check camera, motion, calibration, models, state dir, disk, provider, clock
                            (OK/WARN/FAIL with a fix per line; exit 1 on any FAIL)
`,
  eval: `  eval                      run the task suite on the simulated phone (a fresh appliance per task) and
                            print success, status, turns, tokens and time per task; exit 1 on a failure
      --baseline            the scripted listing-only policy instead of the configured provider
      --task ID,ID          only these tasks
      --json                results as JSON (progress goes to stderr)
      --verbose, -v         every turn too: the note, the tool call and what it answered
`,
  rig: `  rig settings              compare the GRBL board's $$ settings with the rig profile (key, board, expected)
      --apply               save the board's settings to the state dir, then write the profile's
      --yes                 do not ask before writing
  rig reference --parked    the carriage is at the park spot: reference there (after a crash, an e-stop
                            mid-move, a board reset, or a new board); while the daemon runs it asks the
                            daemon (like the dashboard's "Carriage at park" button), else opens the port
                            (rig settings needs the serial port: stop the daemon first)
`,
  version: `  version                   print the version
`,
};

export const OPTIONS_USAGE = `  --config FILE             config file (YAML); else $PICLAW_CONFIG; else built-in defaults
  -h, --help                this text
`;

/** The whole usage text (`piclaw --help`). */
export function usage(): string {
  return `usage: piclaw <command> [options]\n\ncommands:\n${Object.values(COMMAND_USAGE).join("")}\noptions:\n${OPTIONS_USAGE}`;
}

/** One command's usage (`piclaw CMD --help`), or null for an unknown command. */
export function commandUsage(command: string): string | null {
  const text = COMMAND_USAGE[command];
  return text === undefined ? null : `usage:\n${text}\noptions:\n${OPTIONS_USAGE}`;
}
