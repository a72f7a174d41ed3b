import type { Logger } from "../log/logger.js";
import type { Clock } from "../util/clock.js";
import type { Random } from "../util/random.js";
import { type AgentConfig, activeProvider } from "./config.js";
import { AgentRunner, type AgentRunnerDeps, type PromptBuilder, type WindowFactory } from "./engine.js";
import type { FoldPolicy } from "./fold.js";
import type { AgentMemory, AgentSkills } from "./ports.js";
import { buildSystemPrompt, buildWakeMessage } from "./prompt.js";
import { type ChatProvider, OpenAIProvider, realSleep, resolveApiKey, type Sleep } from "./provider.js";
import { ContextWindow } from "./window.js";

/**
 * How the daemon (and `piclaw run`) assembles the agent: the real provider from config, the real
 * window and prompt. Tests build `AgentRunner` directly with fakes where they need to.
 */

/** A fresh ContextWindow with the wake message pinned first. */
export function contextWindowFactory(policy: FoldPolicy): WindowFactory {
  return (system, wake) => {
    const window = new ContextWindow({ system, policy });
    window.addUser(wake);
    return window;
  };
}

/** System prompt from the tools, memory.md, USER.md and the skill index (read fresh per attempt). */
export function defaultPromptBuilder(
  memory: AgentMemory,
  skills: AgentSkills,
  timeZone: string,
): PromptBuilder {
  return async (wake, catalog) => {
    const [memoryText, user, skillIndex] = await Promise.all([
      memory.readMemory(),
      memory.readUser(),
      skills.index(),
    ]);
    const tools = catalog
      .schemas()
      .map((t) => ({ name: t.function.name, description: t.function.description ?? "" }));
    return {
      system: buildSystemPrompt({ tools, memory: memoryText, user, skills: skillIndex }),
      wake: buildWakeMessage(wake, timeZone),
    };
  };
}

export interface ProviderWiring {
  env: NodeJS.ProcessEnv;
  stateDir: string;
  clock: Clock;
  random: Random;
  log: Logger;
  sleep?: Sleep;
  fetch?: typeof fetch;
}

/** The active provider from config (PiclawError PROVIDER_NO_KEY when its key is missing). */
export function createProvider(config: AgentConfig, wiring: ProviderWiring): ChatProvider {
  const { name, settings } = activeProvider(config);
  const apiKey = resolveApiKey(settings, wiring.env, wiring.stateDir);
  return new OpenAIProvider(name, settings, {
    apiKey,
    clock: wiring.clock,
    random: wiring.random,
    sleep: wiring.sleep ?? realSleep,
    log: wiring.log.child("agent.provider"),
    ...(wiring.fetch ? { fetch: wiring.fetch } : {}),
  });
}

/** What the daemon supplies: the runner's dependencies minus the window and prompt, which this module builds. */
export type AgentWiring = Omit<AgentRunnerDeps, "windowFactory" | "prompt">;

/** The runner with the real window (fold policy of the active provider) and the real prompt. */
export function createAgentRunner(w: AgentWiring): AgentRunner {
  const { settings } = activeProvider(w.config);
  return new AgentRunner({
    ...w,
    windowFactory: contextWindowFactory(settings.fold),
    prompt: defaultPromptBuilder(w.memory, w.skills, w.timeZone),
  });
}
