import type { z } from "zod";
import { configSchema } from "./schema.js";

/** One documented config key, derived from the schema (never written by hand). */
export interface ConfigKeyDoc {
  key: string;
  type: string;
  default: string;
  description: string;
}

type AnySchema = z.core.$ZodType;

interface Unwrapped {
  inner: AnySchema;
  defaultValue: unknown;
  hasDefault: boolean;
  optional: boolean;
}

function unwrap(schema: AnySchema): Unwrapped {
  let inner = schema;
  let defaultValue: unknown;
  let hasDefault = false;
  let optional = false;
  for (;;) {
    const def = inner._zod.def;
    if (def.type === "default" || def.type === "prefault") {
      const d = def as unknown as { innerType: AnySchema; defaultValue: unknown };
      if (!hasDefault) {
        defaultValue = d.defaultValue;
        hasDefault = true;
      }
      inner = d.innerType;
    } else if (def.type === "optional") {
      optional = true;
      inner = (def as unknown as { innerType: AnySchema }).innerType;
    } else {
      return { inner, defaultValue, hasDefault, optional };
    }
  }
}

function describeType(schema: AnySchema): string {
  const def = schema._zod.def;
  switch (def.type) {
    case "enum":
      return Object.values((def as unknown as { entries: Record<string, string> }).entries)
        .map((v) => `\`${v}\``)
        .join(" \\| ");
    case "array":
      return "list";
    case "nullable":
      return `${describeType((def as unknown as { innerType: AnySchema }).innerType)} or null`;
    case "object":
      return "object";
    case "number": {
      const n = schema as unknown as { minValue: number | null; maxValue: number | null; isInt?: boolean };
      // `.int()` alone sets the safe-integer bounds: that is no bound a reader needs to see.
      const bounded = (v: number | null): v is number => v !== null && Math.abs(v) < Number.MAX_SAFE_INTEGER;
      const lo = bounded(n.minValue) ? String(n.minValue) : "";
      const hi = bounded(n.maxValue) ? String(n.maxValue) : "";
      return lo || hi ? `number ${lo}…${hi}` : "number";
    }
    default:
      return def.type;
  }
}

function descriptionOf(schema: AnySchema): string {
  return (schema as unknown as { description?: string }).description ?? "";
}

/** Every leaf key of the config schema with its type, default and description. */
export function configKeyDocs(): ConfigKeyDoc[] {
  const out: ConfigKeyDoc[] = [];
  const walk = (schema: AnySchema, prefix: string): void => {
    const shape = (schema._zod.def as unknown as { shape: Record<string, AnySchema> }).shape;
    for (const [name, child] of Object.entries(shape)) {
      const key = prefix ? `${prefix}.${name}` : name;
      const u = unwrap(child);
      if (u.inner._zod.def.type === "object") {
        walk(u.inner, key);
        continue;
      }
      const description = descriptionOf(child) || descriptionOf(u.inner);
      let defaultText = "(none)";
      if (u.hasDefault) defaultText = `\`${JSON.stringify(u.defaultValue)}\``;
      else if (u.optional) defaultText = "(unset)";
      if (u.inner._zod.def.type === "array") {
        const element = (u.inner._zod.def as unknown as { element: AnySchema }).element;
        walkArrayElement(element, `${key}[]`);
      }
      if (u.inner._zod.def.type === "record") {
        // A map of named entries (e.g. providers): list the entry names by default, then each field.
        const names = u.hasDefault && u.defaultValue && typeof u.defaultValue === "object";
        out.push({
          key,
          type: "map",
          default: names
            ? Object.keys(u.defaultValue as object)
                .map((n) => `\`${n}\``)
                .join(", ")
            : defaultText,
          description,
        });
        const value = unwrap((u.inner._zod.def as unknown as { valueType: AnySchema }).valueType).inner;
        if (value._zod.def.type === "object") walk(value, `${key}.<name>`);
        continue;
      }
      out.push({ key, type: describeType(u.inner), default: defaultText, description });
    }
  };
  const walkArrayElement = (element: AnySchema, prefix: string): void => {
    if (element._zod.def.type !== "object") return;
    const shape = (element._zod.def as unknown as { shape: Record<string, AnySchema> }).shape;
    for (const [name, child] of Object.entries(shape)) {
      const u = unwrap(child);
      out.push({
        key: `${prefix}.${name}`,
        type: describeType(u.inner),
        default: u.hasDefault ? `\`${JSON.stringify(u.defaultValue)}\`` : "(required)",
        description: descriptionOf(child) || descriptionOf(u.inner),
      });
    }
  };
  walk(configSchema, "");
  return out;
}

/** The configuration reference as a Markdown table (what README.md embeds). */
export function configReferenceMarkdown(): string {
  const rows = configKeyDocs().map((d) => `| \`${d.key}\` | ${d.type} | ${d.default} | ${d.description} |`);
  return ["| key | type | default | meaning |", "|---|---|---|---|", ...rows].join("\n");
}
