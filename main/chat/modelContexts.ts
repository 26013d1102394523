// How much context a model has, for deciding whether its tools are sent whole or searched for
// (main/host/tools/toolDeferral.ts). A hosted API's models have the usual context of their kind; a model
// on an OpenAI-compatible server has whatever the server was started or loaded with — often far less
// than the model could take — so the server is asked, where it says: Ollama (the context the model is
// loaded with, or its num_ctx), LM Studio (the loaded context), llama.cpp (its n_ctx), vLLM (max_model_len)
// and model lists that carry a context length. A server that says nothing leaves the usual figure.

import type { ModelContext } from './turnTools.ts';
import type { ProviderConfig } from './llmTypes.ts';
import { CONTEXT_TOKENS_BY_KIND } from './toolSearch.ts';

/** How long a server may take to say; a turn never waits longer for it. */
const ASK_WITHIN_MS = 1_500;
/** How long what a server said (or that it said nothing) is kept before it is asked again: the person may reload the model meanwhile. */
const KEPT_MS = 60_000;

export type AskContext = (baseUrl: string, model: string, signal: AbortSignal, apiKey?: string) => Promise<number | undefined>;

/**
 * The key the provider's own requests would carry (undefined without one); rejects where its key may not
 * go to the address it points at now (main/chat/providerKeys.ts), and then the server is not asked at all.
 */
export type ProviderKeyOf = (config: ProviderConfig) => Promise<string | undefined>;

export class ModelContexts {
  private readonly ask: AskContext;
  private readonly keyOf: ProviderKeyOf;
  private readonly learnt = new Map<string, { tokens: number | undefined; at: number }>();

  constructor(ask: AskContext = askCompatibleServer, keyOf: ProviderKeyOf = async () => undefined) {
    this.ask = ask;
    this.keyOf = keyOf;
  }

  /**
   * The model's context, asked of its server (briefly) when it is an OpenAI-compatible one — only where the
   * provider's own requests may go: an address its key is held back from hears nothing before the person
   * agrees in Settings, not even a question without the key.
   */
  async contextOf(config: ProviderConfig, model: string): Promise<ModelContext> {
    if (config.kind !== 'openai-compatible' || !config.baseUrl) return this.known(config, model);
    const key = `${config.baseUrl}\n${model}`;
    const kept = this.learnt.get(key);
    if (!kept || Date.now() - kept.at >= KEPT_MS) {
      const apiKey = await this.keyOf(config).then(
        (value) => ({ value }),
        () => undefined,
      );
      if (apiKey === undefined) return this.known(config, model);
      const tokens = await this.ask(config.baseUrl.replace(/\/+$/, ''), model, AbortSignal.timeout(ASK_WITHIN_MS), apiKey.value).catch(() => undefined);
      this.learnt.set(key, { tokens, at: Date.now() });
    }
    return this.known(config, model);
  }

  /** What is known without asking: what the server said last, else the usual for the provider's kind. */
  known(config: ProviderConfig, model: string): ModelContext {
    const said = config.baseUrl ? this.learnt.get(`${config.baseUrl}\n${model}`)?.tokens : undefined;
    return said !== undefined ? { tokens: said, reported: true } : { tokens: CONTEXT_TOKENS_BY_KIND[config.kind], reported: false };
  }
}

/** A whole number of tokens a context could be, or undefined for anything else a server sends. */
function tokenCount(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isInteger(value) && value > 0 && value < 100_000_000 ? value : undefined;
}

async function getJson(url: string, signal: AbortSignal, init: RequestInit = {}): Promise<unknown> {
  try {
    const response = await fetch(url, { ...init, signal, redirect: 'error' });
    return response.ok ? await response.json() : undefined;
  } catch {
    return undefined;
  }
}

/** A model list (OpenAI's shape, or LM Studio's own): the entry for `model` and the context it reports. */
async function fromModelList(url: string, model: string, signal: AbortSignal, apiKey?: string): Promise<number | undefined> {
  const body = (await getJson(url, signal, apiKey === undefined ? {} : { headers: { authorization: `Bearer ${apiKey}` } })) as { data?: unknown } | undefined;
  const entry = Array.isArray(body?.data) ? (body.data as Record<string, unknown>[]).find((candidate) => candidate?.['id'] === model) : undefined;
  if (!entry) return undefined;
  // The context the model runs with first (LM Studio's loaded one, vLLM's), then what a list says it takes.
  for (const key of ['loaded_context_length', 'max_model_len', 'context_length', 'context_window']) {
    const tokens = tokenCount(entry[key]);
    if (tokens !== undefined) return tokens;
  }
  return undefined;
}

/** Ollama: the context of the model as loaded now, else the num_ctx its parameters set. */
async function fromOllama(root: string, model: string, signal: AbortSignal): Promise<number | undefined> {
  const running = (await getJson(`${root}/api/ps`, signal)) as { models?: { name?: unknown; model?: unknown; context_length?: unknown }[] } | undefined;
  const loaded = Array.isArray(running?.models) ? running.models.find((entry) => entry?.name === model || entry?.model === model) : undefined;
  const now = tokenCount(loaded?.context_length);
  if (now !== undefined) return now;
  const shown = (await getJson(`${root}/api/show`, signal, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ model }) })) as { parameters?: unknown } | undefined;
  const numCtx = typeof shown?.parameters === 'string' ? /^num_ctx\s+(\d+)\s*$/m.exec(shown.parameters)?.[1] : undefined;
  return numCtx === undefined ? undefined : tokenCount(Number(numCtx));
}

/** llama.cpp's server: the context it was started with. */
async function fromLlamaCpp(root: string, signal: AbortSignal): Promise<number | undefined> {
  const props = (await getJson(`${root}/props`, signal)) as { n_ctx?: unknown; default_generation_settings?: { n_ctx?: unknown } } | undefined;
  return tokenCount(props?.default_generation_settings?.n_ctx) ?? tokenCount(props?.n_ctx);
}

/**
 * Asks an OpenAI-compatible server how much context `model` has. Only its model list is asked of a server
 * elsewhere on the internet, with the key the provider's requests carry there anyway; the local servers'
 * own questions go only to this machine or its network, without it.
 */
export async function askCompatibleServer(baseUrl: string, model: string, signal: AbortSignal, apiKey?: string): Promise<number | undefined> {
  const listed = fromModelList(`${baseUrl}/models`, model, signal, apiKey);
  if (!isNearby(baseUrl)) return listed;
  const root = baseUrl.replace(/\/v1$/, '');
  // Each server answers its own questions and not the others': the first that says wins, the list last.
  const answers = await Promise.all([fromOllama(root, model, signal), fromModelList(`${root}/api/v0/models`, model, signal), fromLlamaCpp(root, signal), listed]);
  return answers.find((tokens) => tokens !== undefined);
}

/** A server on this machine or its private network, where local model servers run. */
function isNearby(baseUrl: string): boolean {
  let host: string;
  try {
    host = new URL(baseUrl).hostname.replace(/^\[|\]$/g, '');
  } catch {
    return false;
  }
  return host === 'localhost' || host === '::1' || host.endsWith('.local') || /^(127\.|10\.|192\.168\.|172\.(1[6-9]|2\d|3[01])\.)/.test(host);
}
