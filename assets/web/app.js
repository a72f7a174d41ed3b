// The PiClaw dashboard. Polls /dashboard/status.json and loads the annotated frame when its id changes;
// buttons POST with the x-piclaw-dashboard header (the server refuses cross-site requests without it).
// Everything shown comes from the phone or the agent, so it is written with textContent, never as HTML.

const $ = (id) => document.getElementById(id);
let pollMs = 1500;
let shownFrameId = 0;
let pollTimer = null;

function setText(id, text) {
  const el = $(id);
  if (el.textContent !== text) el.textContent = text;
}

function ago(ms) {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 90) return `${s} s ago`;
  const m = Math.round(s / 60);
  if (m < 90) return `${m} min ago`;
  const h = Math.round(m / 60);
  return h < 48 ? `${h} h ago` : `${Math.round(h / 24)} days ago`;
}

function when(iso, now) {
  if (!iso) return "–";
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return iso;
  const d = t - now;
  const rel = d >= 0 ? `in ${ago(d).replace(" ago", "")}` : ago(-d);
  return `${new Date(t).toLocaleString()} (${rel})`;
}

function say(text, bad) {
  const el = $("message");
  el.textContent = text;
  el.className = bad ? "message bad" : "message";
}

// "Simulated rig" or "Real rig (GRBL on /dev/ttyUSB0)": never leave anyone guessing which one moves.
function renderRig(rig) {
  const el = $("rig");
  el.hidden = !rig;
  if (!rig) return;
  setText("rig", rig.label);
  el.className = rig.simulated ? "pill rig simulated" : "pill rig real";
  $("setupLink").hidden = rig.setupDone;
}

function renderArm(arm) {
  if (arm.error) {
    setText("armState", `unknown (${arm.error})${arm.estopLatched ? " — E-STOP LATCHED" : ""}`);
    return;
  }
  const state = arm.estopLatched ? `${arm.state} — E-STOP LATCHED` : arm.state;
  setText("armState", arm.alarm ? `${state} (${arm.alarm.code}: ${arm.alarm.message})` : state);
  const pos = `x ${arm.position.xMm.toFixed(1)} mm, y ${arm.position.yMm.toFixed(1)} mm`;
  // Not referenced (after an e-stop, alarm or reset): the arm's place is unknown; show where it last was.
  setText("armPos", arm.positionKnown === false ? `unknown (last known: ${pos}) until referenced` : pos);
  setText("armStylus", arm.stylusDown ? "down" : "up");
  setText("armRef", arm.referenced ? "yes" : "no");
  // Bed y points away from the user: draw it upwards.
  const w = arm.travelMm.x;
  const h = arm.travelMm.y;
  $("bed").setAttribute("viewBox", `-4 -4 ${w + 8} ${h + 8}`);
  const travel = $("bedTravel");
  travel.setAttribute("width", String(w));
  travel.setAttribute("height", String(h));
  const a = arm.allowedArea;
  const allowed = $("bedAllowed");
  allowed.setAttribute("x", String(a.minXMm));
  allowed.setAttribute("y", String(h - a.maxYMm));
  allowed.setAttribute("width", String(a.maxXMm - a.minXMm));
  allowed.setAttribute("height", String(a.maxYMm - a.minYMm));
  const dot = $("bedCarriage");
  dot.setAttribute("cx", String(arm.position.xMm));
  dot.setAttribute("cy", String(h - arm.position.yMm));
  dot.setAttribute("r", String(Math.max(w, h) / 40));
  dot.setAttribute(
    "class",
    [arm.estopLatched ? "estop" : "", arm.positionKnown === false ? "unknown" : ""].join(" ").trim(),
  );
}

function renderOwner(owner) {
  const h = owner.holder;
  setText(
    "holder",
    h ? `In use by ${h.label} (${h.priority}) for ${(h.heldMs / 1000).toFixed(1)} s` : "Free",
  );
  const list = $("queue");
  list.replaceChildren(
    ...owner.waiting.map((w) => {
      const li = document.createElement("li");
      li.textContent = `${w.label} (${w.priority}), waiting ${(w.waitedMs / 1000).toFixed(0)} s`;
      return li;
    }),
  );
}

// The daemon's one state (starting, calibrating, ready, degraded, stopping), with its reason or progress.
function renderReadiness(r) {
  const el = $("readiness");
  el.hidden = !r;
  if (!r) return;
  const tail = r.state === "calibrating" ? (r.detail ?? r.reason) : (r.reason ?? r.detail);
  setText("readiness", tail ? `${r.state}: ${tail}` : r.state);
  el.className = `readiness state-${r.state}`;
}

function renderCalibrationRuns(runs, now) {
  $("calibrate").hidden = !runs;
  if (!runs) return;
  $("calibrate").disabled = runs.running !== null;
  if (runs.running) setText("calRun", `running (asked by ${runs.running})`);
  else if (runs.last)
    setText("calRun", `${runs.last.summary} (${runs.last.by}, ${ago(now - runs.last.finishedAt)})`);
  else setText("calRun", "–");
}

function renderCalibration(cal, now, calibrating) {
  if (!cal.present) {
    const none = calibrating ? "calibrating…" : "none — run piclaw calibrate";
    setText("calAge", cal.error ? `unusable: ${cal.error}` : none);
    for (const id of ["calError", "calArm", "calCamera"]) setText(id, "–");
    return;
  }
  setText("calAge", `${ago(cal.ageS * 1000)} (${new Date(now - cal.ageS * 1000).toLocaleString()})`);
  setText(
    "calError",
    `${cal.passed ? "passed" : "FAILED"}: worst tap ${cal.validationMaxErrorMm.toFixed(2)} mm (limit ${cal.thresholdMm} mm)`,
  );
  setText("calArm", `${cal.armResidualRmsMm.toFixed(2)} mm rms`);
  setText("calCamera", `${cal.cameraReprojectionMaxMm.toFixed(2)} mm max`);
}

function cell(text) {
  const td = document.createElement("td");
  td.textContent = text;
  return td;
}

/** A single muted row saying the list is empty. */
function emptyRow(columns, text) {
  const tr = document.createElement("tr");
  const td = cell(text);
  td.colSpan = columns;
  td.className = "muted";
  tr.append(td);
  return tr;
}

function renderJobs(jobs, now) {
  $("jobsError").hidden = !jobs.error;
  $("jobsError").textContent = jobs.error ? `jobs: ${jobs.error}` : "";
  if (jobs.items.length === 0) {
    $("jobs").replaceChildren(emptyRow(5, "No jobs."));
    return;
  }
  $("jobs").replaceChildren(
    ...jobs.items.map((j) => {
      const tr = document.createElement("tr");
      const name = cell(j.id);
      name.title = j.description;
      tr.append(name, cell(`${j.schedule} (${j.type})`), cell(j.status), cell(when(j.nextFireTime, now)));
      tr.append(cell(j.executionResult ?? "–"));
      return tr;
    }),
  );
}

function renderSessions(sessions, now) {
  $("sessionsError").hidden = !sessions.error;
  $("sessionsError").textContent = sessions.error ? `sessions: ${sessions.error}` : "";
  if (sessions.items.length === 0) {
    const none = document.createElement("p");
    none.className = "muted";
    none.textContent = "No sessions yet.";
    $("sessions").replaceChildren(none);
    return;
  }
  $("sessions").replaceChildren(
    ...sessions.items.map((s) => {
      const div = document.createElement("div");
      div.className = "session";
      const title = document.createElement("div");
      const status = document.createElement("strong");
      status.className = `status-${s.status}`;
      status.textContent = s.status;
      title.append(status, ` ${s.id} — started ${when(s.startedAt, now)}`);
      const recap = document.createElement("div");
      recap.textContent = s.recap;
      const notes = document.createElement("ol");
      for (const note of s.notes) {
        const li = document.createElement("li");
        li.textContent = note;
        notes.append(li);
      }
      const images = document.createElement("div");
      for (const url of s.imageUrls) {
        const img = document.createElement("img");
        img.loading = "lazy";
        img.alt = `screen during session ${s.id}`;
        img.src = url;
        images.append(img);
      }
      div.append(title, recap, notes, images);
      return div;
    }),
  );
}

function renderFrame(status) {
  const f = status.frame;
  let state = status.refreshing ? "(refreshing…)" : "";
  if (status.frameError) state = `(last look failed: ${status.frameError})`;
  setText("frameState", state);
  if (!f) return;
  setText("frameTime", ago(status.now - f.takenAt));
  setText("listing", f.listing || "(nothing recognised on the screen)");
  if (f.id !== shownFrameId) showFrame(f.id);
}

function showFrame(id) {
  shownFrameId = id;
  const img = $("frame");
  // The id is shown (and put on the image) only once the picture has decoded.
  img.onload = () => {
    if (shownFrameId !== id) return;
    img.dataset.frameId = String(id);
    setText("frameId", String(id));
    img.hidden = false;
    $("framePlaceholder").hidden = true;
  };
  img.src = `/dashboard/frame.jpg?id=${id}`;
}

function render(status) {
  pollMs = status.pollMs;
  const conn = $("conn");
  conn.textContent = "live";
  conn.className = "pill ok";
  setText("who", status.tokenRequired ? `logged in as ${status.who}` : "");
  $("logout").hidden = !status.tokenRequired || status.who === "local";
  renderFrame(status);
  renderArm(status.arm);
  renderOwner(status.owner);
  renderRig(status.rig);
  renderReadiness(status.readiness);
  renderCalibration(status.calibration, status.now, status.readiness?.state === "calibrating");
  renderCalibrationRuns(status.calibrationRuns, status.now);
  renderJobs(status.jobs, status.now);
  renderSessions(status.sessions, status.now);
}

async function poll() {
  try {
    const res = await fetch("/dashboard/status.json", { cache: "no-store", credentials: "same-origin" });
    if (res.status === 401) {
      location.reload(); // the login ended: show the form
      return;
    }
    if (!res.ok) throw new Error(`HTTP ${res.status}`);
    render(await res.json());
  } catch (err) {
    const conn = $("conn");
    conn.textContent = `offline (${err.message})`;
    conn.className = "pill bad";
  } finally {
    pollTimer = setTimeout(poll, pollMs);
  }
}

async function post(path, button, busyText) {
  button.disabled = true;
  say(busyText, false);
  try {
    const res = await fetch(path, {
      method: "POST",
      headers: { "x-piclaw-dashboard": "1" },
      credentials: "same-origin",
    });
    const body = await res.json().catch(() => ({}));
    if (!res.ok || body.ok === false) throw new Error(body.error?.message ?? `HTTP ${res.status}`);
    return body;
  } catch (err) {
    say(err.message, true);
    return null;
  } finally {
    button.disabled = false;
  }
}

function refreshSoon() {
  clearTimeout(pollTimer);
  poll();
}

$("peek").addEventListener("click", async () => {
  const body = await post("/dashboard/peek", $("peek"), "Looking at the phone…");
  if (body) {
    say(body.frame ? `New view: frame ${body.frame.id}` : "No view", false);
    refreshSoon();
  }
});
$("park").addEventListener("click", async () => {
  const body = await post("/dashboard/park", $("park"), "Parking (waiting for the arm if it is in use)…");
  if (body) say(body.message, false);
  refreshSoon();
});
$("estop").addEventListener("click", async () => {
  const body = await post("/dashboard/estop", $("estop"), "Emergency stop…");
  if (body) say(body.message, true);
  refreshSoon();
});
$("estopReset").addEventListener("click", async () => {
  const question =
    "Reset the emergency stop? The arm is referenced again: without endstops, its current spot is taken " +
    "to be the park spot, so move the carriage there by hand first.";
  if (!confirm(question)) return;
  const body = await post("/dashboard/estop-reset", $("estopReset"), "Resetting the emergency stop…");
  if (body) say(body.message, false);
  refreshSoon();
});
$("confirmParked").addEventListener("click", async () => {
  // The rig cannot tell where the carriage is (a crash, an e-stop mid-move, a board that reset): only the
  // person at the rig can. Referencing elsewhere would send every later move off by the difference.
  const question =
    "The carriage is at the park spot — I checked.\n\nConfirm only if you can see it there (push it there " +
    "by hand with the motors off first). The arm is referenced at the park spot, a latched e-stop is " +
    "cleared, and it may move again.";
  if (!confirm(question)) return;
  const body = await post("/dashboard/confirm-parked", $("confirmParked"), "Referencing at the park spot…");
  if (body) say(body.message, false);
  refreshSoon();
});
$("calibrate").addEventListener("click", async () => {
  const question =
    "Calibrate now? The arm taps a dot pattern on the phone for a minute or two; tools and agent sessions " +
    "wait until it is done.";
  if (!confirm(question)) return;
  const body = await post("/dashboard/calibrate", $("calibrate"), "Starting a calibration…");
  if (body) say(body.message, false);
  refreshSoon();
});
$("logout").addEventListener("click", async () => {
  await post("/dashboard/logout", $("logout"), "Logging out…");
  location.reload();
});

poll();
