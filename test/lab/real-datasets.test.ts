import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { extname, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { realScreenSchema } from "../../src/lab/real/labels.js";
import { imageHeader } from "../../src/util/image-header.js";

/**
 * Integrity of the real-screen sets: the development set `datasets/real-iphone/` (rules are built on
 * it) and the check sets `datasets/real-iphone-check/`, `datasets/real-iphone-check2/`,
 * `datasets/real-iphone-check3/`, `datasets/real-iphone-check4/`, `datasets/real-iphone-check5/`, `datasets/real-iphone-check6/`, `datasets/real-iphone-check7/`, `datasets/real-iphone-check8/` and `datasets/real-iphone-check9/` (nobody tunes on them; see their READMEs; each later one stays blind
 * because it shares no repository with the sets before it). Every
 * label parses with `realScreenSchema` and names an image of the size it states; every image has
 * exactly one label and exactly one `sources.csv` row with a non-empty licence; and no repository of
 * a check set appears in the development set or in the never-use list (the held-out set draws on
 * those, so a screen from them would leak it), nor the first check set's in the second.
 */

const DEV = "datasets/real-iphone";
const CHECK = "datasets/real-iphone-check";
const CHECK2 = "datasets/real-iphone-check2";
const CHECK3 = "datasets/real-iphone-check3";
const CHECK4 = "datasets/real-iphone-check4";
const CHECK5 = "datasets/real-iphone-check5";
const CHECK6 = "datasets/real-iphone-check6";
const CHECK7 = "datasets/real-iphone-check7";
const CHECK8 = "datasets/real-iphone-check8";
const CHECK9 = "datasets/real-iphone-check9";

/** The never-use list of `datasets/real-iphone/README.md` (the held-out evaluation set draws on these). */
const NEVER_USE = [
  "Honye/scriptable-scripts",
  "TripleFireMan/DailyClock",
  "VirgilClyne/iRingo",
  "VoIPGRID/vialer-ios",
  "apple/ml-ferret",
  "dompling/Scriptable",
  "home-assistant/companion.home-assistant",
  "julianschiavo/NextBus",
  "microsoft/OmniParser",
];

const SOURCE_COLUMNS = ["id", "repo", "path", "commit", "licence", "licence_file", "notes"];

/** RFC 4180 CSV: quoted fields may hold commas, and `""` inside quotes is one quote. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let field = "";
  let row: string[] = [];
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ",") {
      row.push(field);
      field = "";
    } else if (c === "\n" || c === "\r") {
      if (c === "\r" && text[i + 1] === "\n") i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = "";
    } else field += c;
  }
  if (field !== "" || row.length > 0) rows.push([...row, field]);
  return rows.filter((r) => r.some((f) => f !== ""));
}

interface SourceRow {
  id: string;
  repo: string;
  licence: string;
}

function readSources(dir: string, problems: string[]): SourceRow[] {
  const [header, ...rows] = parseCsv(readFileSync(join(dir, "sources.csv"), "utf8"));
  if (header?.join(",") !== SOURCE_COLUMNS.join(","))
    problems.push(`${dir}/sources.csv: header is not ${SOURCE_COLUMNS.join(",")}`);
  return rows.map((r, i) => {
    if (r.length !== SOURCE_COLUMNS.length)
      problems.push(`${dir}/sources.csv row ${i + 2}: ${r.length} fields`);
    return { id: r[0] ?? "", repo: r[1] ?? "", licence: (r[4] ?? "").trim() };
  });
}

/** Every problem found in one dataset directory (empty when it is sound). */
function checkSet(dir: string): { problems: string[]; repos: Set<string> } {
  const problems: string[] = [];
  const stem = (f: string) => f.slice(0, f.length - extname(f).length);
  const files = readdirSync(join(dir, "images")).filter((f) => !f.startsWith("."));
  const images = files.filter((f) => /\.(png|jpe?g)$/i.test(f));
  for (const f of files) if (!images.includes(f)) problems.push(`images/${f}: not a PNG or JPEG`);
  const labelFiles = readdirSync(join(dir, "labels")).filter((f) => f.endsWith(".json"));
  const labelsByImage = new Map<string, string[]>();
  for (const file of labelFiles) {
    const parsed = realScreenSchema.safeParse(JSON.parse(readFileSync(join(dir, "labels", file), "utf8")));
    if (!parsed.success) {
      problems.push(
        `${file}: ${parsed.error.issues.map((i) => `${i.path.join(".")} ${i.message}`).join("; ")}`,
      );
      continue;
    }
    const label = parsed.data;
    if (stem(label.image) !== stem(file)) problems.push(`${file}: names image ${label.image}`);
    labelsByImage.set(label.image, [...(labelsByImage.get(label.image) ?? []), file]);
    if (!images.includes(label.image)) {
      problems.push(`${file}: image ${label.image} missing`);
      continue;
    }
    const header = imageHeader(readFileSync(join(dir, "images", label.image)));
    if (header?.width !== label.width || header.height !== label.height)
      problems.push(
        `${file}: says ${label.width}x${label.height}, image is ${header?.width}x${header?.height}`,
      );
  }
  const sources = readSources(dir, problems);
  for (const image of images) {
    const labels = labelsByImage.get(image) ?? [];
    if (labels.length !== 1) problems.push(`${image}: ${labels.length} labels`);
    const rows = sources.filter((s) => s.id === stem(image));
    if (rows.length !== 1) problems.push(`${image}: ${rows.length} sources.csv rows`);
    else if (rows[0]?.licence === "") problems.push(`${image}: empty licence`);
  }
  for (const s of sources)
    if (!images.some((i) => stem(i) === s.id)) problems.push(`sources.csv row ${s.id}: no image`);
  return { problems, repos: new Set(sources.map((s) => s.repo)) };
}

/** Check-set repositories that must not be there: in the development set or on the never-use list. */
function leaks(checkRepos: Set<string>, devRepos: Set<string>): string[] {
  return [...checkRepos].filter((r) => devRepos.has(r) || NEVER_USE.includes(r));
}

const tmp = mkdtempSync(join(tmpdir(), "real-datasets-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** A one-screen dataset in `tmp/name` (a 1x1 PNG, its label and source row), edited by `tweak`. */
function fixture(
  name: string,
  tweak: (files: { label: Record<string, unknown>; csv: string }) => void,
): string {
  const dir = join(tmp, name);
  mkdirSync(join(dir, "images"), { recursive: true });
  mkdirSync(join(dir, "labels"), { recursive: true });
  const png = Buffer.from(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
    "base64",
  );
  writeFileSync(join(dir, "images", "ck-x-a.png"), png);
  const files = {
    label: {
      image: "ck-x-a.png",
      width: 1,
      height: 1,
      lang: "en",
      theme: "light",
      screen: "home",
      statusBar: null,
      text: [],
      elements: [],
    } as Record<string, unknown>,
    csv: `${SOURCE_COLUMNS.join(",")}\nck-x-a,someone/repo,a.png,${"0".repeat(40)},MIT,LICENSE,"1x1, test"\n`,
  };
  tweak(files);
  writeFileSync(join(dir, "labels", "ck-x-a.json"), JSON.stringify(files.label));
  writeFileSync(join(dir, "sources.csv"), files.csv);
  return dir;
}

describe("real-screen datasets", () => {
  const dev = checkSet(DEV);

  it("development set: labels parse, one label and one licensed source row per image", () => {
    expect(dev.problems).toEqual([]);
  });

  /**
   * The check sets in the order they were gathered, each with the fewest repositories it must draw on
   * (the sixth: three only — session 15 found no more under a redistributable licence in time; its
   * README says so; the ninth: five, likewise in session 18). Each draws on no repository of the development set, an earlier check set or the
   * never-use list.
   */
  const CHECKS: { name: string; dir: string; minRepos: number }[] = [
    { name: "check set", dir: CHECK, minRepos: 1 },
    { name: "second check set", dir: CHECK2, minRepos: 1 },
    { name: "third check set", dir: CHECK3, minRepos: 1 },
    { name: "fourth check set", dir: CHECK4, minRepos: 1 },
    { name: "fifth check set", dir: CHECK5, minRepos: 6 },
    { name: "sixth check set", dir: CHECK6, minRepos: 3 },
    { name: "seventh check set", dir: CHECK7, minRepos: 6 },
    { name: "eighth check set", dir: CHECK8, minRepos: 6 },
    { name: "ninth check set", dir: CHECK9, minRepos: 5 },
  ];
  const earlier = new Set(dev.repos);
  for (const { name, dir, minRepos } of CHECKS) {
    const set = checkSet(dir);
    const before = new Set(earlier);
    for (const repo of set.repos) earlier.add(repo);

    it(`${name}: labels parse, one label and one licensed source row per image`, () => {
      expect(set.problems).toEqual([]);
    });

    it(`${name} draws on no repository of the development set, an earlier check set or the never-use list`, () => {
      expect(set.repos.size).toBeGreaterThanOrEqual(minRepos);
      expect(leaks(set.repos, before)).toEqual([]);
    });
  }

  it("the never-use list here is the one the development set's README states", () => {
    const readme = readFileSync(join(DEV, "README.md"), "utf8").replace(/\s+/g, " ");
    for (const repo of NEVER_USE) expect(readme).toContain(repo);
  });

  it("finds a bad label, a missing or unlicensed source row, and a leaked repository", () => {
    expect(checkSet(fixture("ok", () => {})).problems).toEqual([]);
    const badLabel = fixture("bad-label", (f) => {
      f.label.lang = "klingon";
    });
    expect(checkSet(badLabel).problems.join()).toContain("lang");
    const wrongSize = fixture("wrong-size", (f) => {
      f.label.width = 2;
    });
    expect(checkSet(wrongSize).problems.join()).toContain("image is 1x1");
    const noLicence = fixture("no-licence", (f) => {
      f.csv = f.csv.replace(",MIT,", ",,");
    });
    expect(checkSet(noLicence).problems).toEqual(["ck-x-a.png: empty licence"]);
    const noRow = fixture("no-row", (f) => {
      f.csv = `${SOURCE_COLUMNS.join(",")}\n`;
    });
    expect(checkSet(noRow).problems).toEqual(["ck-x-a.png: 0 sources.csv rows"]);
    const twoRows = fixture("two-rows", (f) => {
      f.csv += f.csv.split("\n")[1];
    });
    expect(checkSet(twoRows).problems).toEqual(["ck-x-a.png: 2 sources.csv rows"]);
    expect(leaks(new Set(["dompling/Scriptable", "someone/repo"]), new Set())).toEqual([
      "dompling/Scriptable",
    ]);
    expect(leaks(new Set(["someone/repo"]), new Set(["someone/repo"]))).toEqual(["someone/repo"]);
  });
});
