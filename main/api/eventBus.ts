import { eventNames } from '../../shared/contract.ts';
import type { AtriumEvents, EventListener, EventName } from '../../shared/contract.ts';

/**
 * The host's typed event stream. Front ends (the Electron IPC adapter, the browser bridge, the CLI)
 * subscribe here; a listener that throws is reported and never stops delivery to the others.
 */
export class EventBus {
  private readonly listeners = new Map<EventName, Set<(payload: never) => void>>();

  on<K extends EventName>(event: K, listener: EventListener<K>): () => void {
    let set = this.listeners.get(event);
    if (!set) {
      set = new Set();
      this.listeners.set(event, set);
    }
    const stored = listener as (payload: never) => void;
    set.add(stored);
    return () => set.delete(stored);
  }

  /** Subscribes one listener to every event, for front ends that forward everything. */
  onAny(listener: <K extends EventName>(event: K, payload: AtriumEvents[K]) => void): () => void {
    const offs = eventNames.map((name) => this.on(name, (payload) => listener(name, payload)));
    return () => offs.forEach((off) => off());
  }

  emit<K extends EventName>(event: K, payload: AtriumEvents[K]): void {
    const set = this.listeners.get(event);
    if (!set) return;
    for (const listener of [...set]) {
      try {
        (listener as EventListener<K>)(payload);
      } catch (error) {
        process.emitWarning(`Atrium event listener for "${event}" failed: ${String(error)}`);
      }
    }
  }
}
