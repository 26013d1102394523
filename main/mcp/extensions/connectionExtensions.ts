// The extensions every connection takes part in: one line each. What a client declares when it connects
// is made from this list, so an extension is added here and nowhere else in the connection code.

import type { JSONObject } from '@modelcontextprotocol/client';
import type { ConnectionExtension, ConnectionServices } from '../connection/connectionServices.ts';
import { appsConnection } from './apps/appsConnection.ts';
import { tasksConnection } from './tasks/tasksConnection.ts';
import { skillsConnection } from './skills/skillsConnection.ts';

export const connectionExtensions: readonly ConnectionExtension[] = [appsConnection, tasksConnection, skillsConnection];

/** The client's `extensions` capability: what each extension declares, or undefined when none takes part. */
export function declaredExtensions(services: ConnectionServices): Record<string, JSONObject> | undefined {
  const declared = Object.fromEntries(connectionExtensions.flatMap((extension) => {
    const declaration = extension.declare(services);
    return declaration === undefined ? [] : [[extension.id, declaration]];
  }));
  return Object.keys(declared).length > 0 ? declared : undefined;
}

/** The top-level client capabilities the extensions add (a 2025-era feature declared outside `extensions`). */
export function declaredCapabilities(services: ConnectionServices): Record<string, JSONObject> {
  return Object.assign({}, ...connectionExtensions.map((extension) => extension.capabilities?.(services) ?? {})) as Record<string, JSONObject>;
}
