// The PiClaw setup wizard. Each step is one call to /api/setup/* (or /api/calibrate); every answer is
// {ok: true, …} or {ok: false, error: {code, message, fix}}, shown in the step's result box. Text from
// the appliance is written with textContent; the one piece of markup (the QR code's SVG, made by the
// daemon) is parsed as SVG and adopted, never assigned as HTML.

const $ = (id) => document.getElementById(id);
const SVG = "http://www.w3.org/2000/svg";
let state = null;
let chosenBoard = null;

async function call(path, body) {
  const init =
    body === undefined
      ? { headers: { accept: "application/json" } }
      : {
          method: "POST",
          headers: { "content-type": "application/json", "x-piclaw-dashboard": "1" },
          body: JSON.stringify(body),
        };
  const res = await fetch(path, init);
  const json = await res.json().catch(() => ({
    ok: false,
    error: { code: `HTTP_${res.status}`, message: res.statusText, fix: "reload the page" },
  }));
  return json;
}

function show(id, reply, okText) {
  const el = $(id);
  el.replaceChildren();
  const p = document.createElement("p");
  if (reply.ok) {
    p.className = "ok";
    p.textContent = `✓ ${okText}`;
    el.append(p);
  } else {
    const e = reply.error ?? {};
    p.className = "problem";
    p.textContent = `✗ ${e.message ?? "failed"} (${e.code ?? "?"})`;
    const fix = document.createElement("p");
    fix.className = "fix";
    fix.textContent = `How to fix: ${e.fix ?? "see the PiClaw log"}`;
    el.append(p, fix);
  }
  el.closest(".step")?.classList.toggle("done", reply.ok === true);
}

async function loadState() {
  const reply = await call("/api/setup/state");
  if (!reply.ok) return null;
  state = reply;
  $("rig").textContent = state.rig;
  $("rig").className = state.backend === "sim" ? "pill rig simulated" : "pill rig real";
  const select = $("profile");
  if (select.options.length === 0) {
    for (const p of state.profiles) {
      const o = document.createElement("option");
      o.value = p.name;
      o.textContent = `${p.name} — ${p.description}`;
      select.append(o);
    }
  }
  select.value = state.profile;
  if (state.bridge)
    $("pairState").textContent =
      `(${state.bridge.pairedDevices} phone(s) paired${state.bridge.pageOpen ? ", bridge page open" : ""})`;
  return state;
}

$("cameraBtn").addEventListener("click", async () => {
  const r = await call("/api/setup/camera", {});
  show(
    "cameraResult",
    r,
    r.ok
      ? r.cameras
          .map(
            (c) => `camera ${c.index}: ${c.model}${c.pixels ? ` ${c.pixels.width}×${c.pixels.height}` : ""}`,
          )
          .join("; ") || r.note
      : "",
  );
});

$("boardsBtn").addEventListener("click", async () => {
  $("boardsBtn").disabled = true;
  const r = await call("/api/setup/boards", {});
  $("boardsBtn").disabled = false;
  const list = $("boardList");
  list.replaceChildren();
  if (r.ok && r.boards.length === 0) {
    r.ok = false;
    r.error = {
      code: "SETUP_NO_BOARD",
      message: "no USB serial device is plugged in",
      fix: "plug the motion board's USB cable into the Pi, power the board, and detect again",
    };
  }
  const talking = r.ok ? r.boards.filter((b) => b.banner) : [];
  show(
    "boardsResult",
    r.ok && talking.length === 0 ? { ok: false, error: r.boards[0].error } : r,
    `${talking.length} board(s) answered`,
  );
  for (const b of r.ok ? r.boards : []) {
    const label = document.createElement("label");
    label.className = "board";
    const radio = document.createElement("input");
    radio.type = "radio";
    radio.name = "board";
    radio.value = b.path;
    radio.disabled = !b.banner;
    radio.addEventListener("change", () => {
      chosenBoard = b.path;
    });
    if (b.banner && !chosenBoard) {
      radio.checked = true;
      chosenBoard = b.path;
    }
    label.append(
      radio,
      ` ${b.path} → ${b.device} [${b.usbId ?? "no USB id"}${b.chip ? `, ${b.chip}` : ""}]: ${b.banner ? b.banner.text : `${b.error?.message} (${b.error?.fix})`}`,
    );
    list.append(label);
  }
});

async function settings(apply) {
  if (!chosenBoard)
    return show("settingsResult", {
      ok: false,
      error: {
        code: "SETUP_NO_BOARD",
        message: "no board chosen",
        fix: "run step 2 and pick the board that answered",
      },
    });
  const r = await call("/api/setup/settings", {
    profile: $("profile").value,
    serialPath: chosenBoard,
    apply,
    parked: $("parked").checked,
  });
  const table = $("mismatches");
  const body = table.querySelector("tbody");
  body.replaceChildren();
  for (const m of r.ok ? r.mismatches : []) {
    const tr = document.createElement("tr");
    for (const v of [m.key, m.board, m.expected, m.meaning]) {
      const td = document.createElement("td");
      td.textContent = v;
      tr.append(td);
    }
    body.append(tr);
  }
  table.hidden = !r.ok || r.mismatches.length === 0;
  let text = "";
  if (r.ok) {
    text = r.fluidnc
      ? `FluidNC: check its config.yaml against the profile (${r.notApplicable.join("; ")})`
      : r.mismatches.length
        ? `${r.board}: ${r.mismatches.length} setting(s) differ from the profile`
        : `${r.board}: the settings match the profile`;
    if (r.written.length) text += `; wrote ${r.written.join(" ")} (previous settings saved to ${r.backup})`;
    if (r.parkedRecorded) text += "; the park position is recorded";
  }
  show(
    "settingsResult",
    r.ok && r.mismatches.length && !r.fluidnc
      ? {
          ok: false,
          error: {
            code: "SETUP_SETTINGS_DIFFER",
            message: text,
            fix: "press “Write the profile's settings to the board”",
          },
        }
      : r,
    text,
  );
}
$("checkBtn").addEventListener("click", () => settings(false));
$("applyBtn").addEventListener("click", () => settings(true));

async function showView() {
  const img = $("view");
  const loaded = new Promise((resolve) => {
    img.onload = () => resolve(true);
    img.onerror = () => resolve(false);
  });
  img.src = `/api/setup/picture.jpg?t=${Date.now()}`;
  img.hidden = false;
  if (!(await loaded)) {
    img.hidden = true;
    const r = await fetch(img.src)
      .then((res) => res.json())
      .catch(() => ({
        ok: false,
        error: { code: "CAMERA", message: "no picture", fix: "check the camera (step 1)" },
      }));
    return show("viewResult", r, "");
  }
  img.dataset.shown = String(Date.now());
  const o = await call("/api/setup/overlay");
  drawOverlay(o, img);
  show(
    "viewResult",
    { ok: true },
    o.outline ? "the phone's outline and the last validation taps are drawn on the picture" : o.note,
  );
}

function drawOverlay(o, img) {
  const svg = $("viewOverlay");
  svg.replaceChildren();
  svg.hidden = !o.outline;
  if (!o.outline) return;
  svg.setAttribute("viewBox", `0 0 ${o.width ?? img.naturalWidth} ${o.height ?? img.naturalHeight}`);
  const poly = document.createElementNS(SVG, "polygon");
  poly.setAttribute("points", o.outline.map((p) => `${p.x},${p.y}`).join(" "));
  poly.setAttribute("class", "outline");
  svg.append(poly);
  for (const t of o.taps) {
    const c = document.createElementNS(SVG, "circle");
    c.setAttribute("cx", t.target.x);
    c.setAttribute("cy", t.target.y);
    c.setAttribute("r", 14);
    c.setAttribute("class", t.passed ? "tap pass" : "tap fail");
    svg.append(c);
    if (t.reported) {
      const d = document.createElementNS(SVG, "circle");
      d.setAttribute("cx", t.reported.x);
      d.setAttribute("cy", t.reported.y);
      d.setAttribute("r", 5);
      d.setAttribute("class", "landed");
      svg.append(d);
    }
  }
  svg.dataset.taps = String(o.taps.length);
}
$("viewBtn").addEventListener("click", showView);

async function switchRig(backend) {
  const r = await call("/api/setup/switch", {
    backend,
    profile: $("profile").value,
    ...(chosenBoard ? { serialPath: chosenBoard } : {}),
  });
  show("switchResult", r, "written; PiClaw is restarting…");
  if (!r.ok) return;
  // The server goes away and comes back: wait for it, then pick up where it stands.
  for (let i = 0; i < 240; i++) {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const s = await loadState().catch(() => null);
    if (s && s.backend === backend) {
      show("switchResult", { ok: true }, `restarted: ${s.rig}`);
      return;
    }
  }
  show("switchResult", {
    ok: false,
    error: {
      code: "SETUP_RESTART_SLOW",
      message: "PiClaw did not come back within 4 minutes",
      fix: "look at the log (journalctl -u piclaw); delete config-overlay.yaml in the state directory to go back",
    },
  });
}
$("switchBtn").addEventListener("click", () => switchRig("hardware"));
$("simBtn").addEventListener("click", () => switchRig("sim"));

$("pairBtn").addEventListener("click", async () => {
  const r = await call("/api/setup/pair", {});
  show("pairResult", r, r.ok ? `valid until ${new Date(r.expiresAt).toLocaleTimeString()}, once` : "");
  $("qr").replaceChildren();
  if (!r.ok) return;
  const doc = new DOMParser().parseFromString(r.qrSvg, "image/svg+xml");
  const svg = document.adoptNode(doc.documentElement);
  svg.setAttribute("class", "qr");
  $("qr").append(svg);
  $("pairLink").textContent = r.link;
  $("pairCode").textContent = r.code;
});

$("calBtn").addEventListener("click", async () => {
  $("calBtn").disabled = true;
  const log = $("calLog");
  log.textContent = "";
  let result = {
    ok: false,
    error: {
      code: "CALIBRATION_NO_RESULT",
      message: "the calibration ended without a verdict",
      fix: "see the PiClaw log",
    },
  };
  try {
    const res = await fetch("/api/calibrate", {
      method: "POST",
      headers: { "content-type": "application/json", "x-piclaw-dashboard": "1" },
      body: "{}",
    });
    if (!res.ok || !res.body) {
      const j = await res.json().catch(() => ({}));
      result = {
        ok: false,
        error: {
          code: j.code ?? `HTTP_${res.status}`,
          message: j.error ?? res.statusText,
          fix: "pair the phone and open the bridge page on it (step 6), then calibrate again",
        },
      };
    } else {
      const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
      let buffered = "";
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffered += value;
        const lines = buffered.split("\n");
        buffered = lines.pop() ?? "";
        for (const line of lines.filter(Boolean)) {
          const m = JSON.parse(line);
          if (m.type === "line") log.textContent += `${m.text}\n`;
          else if (m.type === "result")
            result = m.passed
              ? { ok: true }
              : {
                  ok: false,
                  error: {
                    code: "CALIBRATION_FAILED",
                    message: "the validation taps missed",
                    fix: "check the phone lies flat and still, the stylus reaches the glass, then calibrate again",
                  },
                };
          else if (m.type === "error")
            result = {
              ok: false,
              error: { code: m.code, message: m.message, fix: "fix the cause above, then calibrate again" },
            };
        }
      }
    }
  } finally {
    $("calBtn").disabled = false;
  }
  show("calResult", result, "calibrated: the validation taps passed");
  if (result.ok) await showView();
  await loadState();
});

$("tokenBtn").addEventListener("click", async () => {
  const r = await call("/api/setup/token", { label: $("tokenLabel").value || "mcp-host" });
  show("tokenResult", r, r.ok ? `token ${r.id} (${r.label}) created for ${r.url}` : "");
  $("mcpConfig").textContent = r.ok ? JSON.stringify(r.mcpConfig, null, 2) : "";
});

$("finishBtn").addEventListener("click", async () => {
  const r = await call("/api/setup/finish", {});
  show("finishResult", r, "setup finished: the dashboard shows the phone (press Peek)");
});

loadState();
