// Adds PiClaw's service account to a base image's account files without useradd/chroot (customise.sh).
// Usage: node accounts.mjs DIR — DIR holds passwd, group, shadow, gshadow dumped from the image; writes
// NAME.new for each file it changed and prints "UID GID" of the `piclaw` user on stdout.
// What it makes matches `useradd --system --user-group --no-create-home --home-dir /var/lib/piclaw
// --shell /usr/sbin/nologin --groups gpio,video,dialout piclaw` (+ `groupadd --system gpio` when the
// base has no gpio group, as plain Debian): system ids are taken from the top of 100..999 down, like
// useradd does, and the password field is locked ("!" in shadow: no password login, key-only SSH).
import { existsSync, readFileSync, writeFileSync } from "node:fs";

const dir = process.argv[2];
const read = (name) =>
  existsSync(`${dir}/${name}`)
    ? readFileSync(`${dir}/${name}`, "utf8")
        .split("\n")
        .filter((l) => l !== "")
    : [];
const files = {
  passwd: read("passwd"),
  group: read("group"),
  shadow: read("shadow"),
  gshadow: read("gshadow"),
};
const changed = new Set();
const byName = (lines, name) => lines.findIndex((l) => l.split(":")[0] === name);
const usedIds = (lines) => new Set(lines.map((l) => Number(l.split(":")[2])));
const freeSystemId = (...sets) => {
  for (let id = 999; id >= 100; id--) if (sets.every((s) => !s.has(id))) return id;
  throw new Error("no free system id in 100..999");
};
const epochDays = Math.floor(Date.now() / 86_400_000);

function addGroup(name) {
  const at = byName(files.group, name);
  if (at >= 0) return Number(files.group[at].split(":")[2]);
  const gid = freeSystemId(usedIds(files.group), usedIds(files.passwd));
  files.group.push(`${name}:x:${gid}:`);
  changed.add("group");
  if (files.gshadow.length > 0) {
    files.gshadow.push(`${name}:!::`);
    changed.add("gshadow");
  }
  return gid;
}

function addMember(file, fieldIndex, group, user) {
  const lines = files[file];
  const at = byName(lines, group);
  if (at < 0) return;
  const fields = lines[at].split(":");
  const members = fields[fieldIndex] ? fields[fieldIndex].split(",") : [];
  if (members.includes(user)) return;
  members.push(user);
  fields[fieldIndex] = members.join(",");
  lines[at] = fields.join(":");
  changed.add(file);
}

for (const g of ["gpio", "video", "dialout"]) addGroup(g);
let uid;
let gid;
const userAt = byName(files.passwd, "piclaw");
if (userAt >= 0) {
  [, , uid, gid] = files.passwd[userAt].split(":").map((f, i) => (i >= 2 && i <= 3 ? Number(f) : f));
} else {
  uid = freeSystemId(usedIds(files.passwd), usedIds(files.group));
  gid = byName(files.group, "piclaw") >= 0 ? addGroup("piclaw") : null;
  if (gid === null) {
    // --user-group: the same number for the group when it is free.
    gid = usedIds(files.group).has(uid) ? freeSystemId(usedIds(files.group), usedIds(files.passwd)) : uid;
    files.group.push(`piclaw:x:${gid}:`);
    changed.add("group");
    if (files.gshadow.length > 0) {
      files.gshadow.push("piclaw:!::");
      changed.add("gshadow");
    }
  }
  files.passwd.push(`piclaw:x:${uid}:${gid}:PiClaw:/var/lib/piclaw:/usr/sbin/nologin`);
  files.shadow.push(`piclaw:!:${epochDays}::::::`);
  changed.add("passwd");
  changed.add("shadow");
}
for (const g of ["gpio", "video", "dialout"]) {
  addMember("group", 3, g, "piclaw");
  if (files.gshadow.length > 0) addMember("gshadow", 3, g, "piclaw");
}
for (const name of changed) writeFileSync(`${dir}/${name}.new`, `${files[name].join("\n")}\n`);
process.stdout.write(`${uid} ${gid}\n`);
