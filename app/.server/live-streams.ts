/**
 * The console's open `/events` relays, so a graceful stop (SIGTERM, web-server.mjs) can end each one
 * between two events with the reconnect hint instead of cutting it (decision 137).
 */
const relays = new Set<() => void>()

export function onDrain(end: () => void): () => void {
  relays.add(end)
  return () => relays.delete(end)
}

/** Ends every open live stream; answers how many there were. */
export function drainLiveStreams(): number {
  const all = [...relays]
  for (const end of all) end()
  return all.length
}
