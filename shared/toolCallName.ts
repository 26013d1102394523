// How a tool call is named for a person. A call the model made to a tool no server offered it (its server
// off or removed, a name made up) ran nowhere: its record has no server, and holds the name the model used.
// Said the same way in the window and in the exports.

/** The call's name as shown: "server / tool", or the model's own name when no server offered it. */
export function toolCallName(call: { serverId: string; tool: string }, separator = ' / '): string {
  return call.serverId === '' ? call.tool : `${call.serverId}${separator}${call.tool}`;
}

/** Whether the model named a tool no server offered it, so the call ran nowhere. */
export function offeredByNoServer(call: { serverId: string }): boolean {
  return call.serverId === '';
}
