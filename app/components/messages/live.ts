import { useEffect, useRef } from 'react'
import type { LiveEvent } from '#contract/messages.ts'

type Listener = (e: LiveEvent) => void

/** One EventSource per stream URL for the whole page, however many components listen (the badge, a chat). */
const streams = new Map<string, { source: EventSource; listeners: Set<Listener> }>()
const TYPES: LiveEvent['type'][] = ['chat', 'chatStatus', 'message', 'notification', 'read']

function join(url: string, listener: Listener) {
  let s = streams.get(url)
  if (!s) {
    const source = new EventSource(url)
    const listeners = new Set<Listener>()
    for (const type of TYPES) {
      source.addEventListener(type, (ev) => {
        const event = JSON.parse((ev as MessageEvent<string>).data) as LiveEvent
        for (const l of listeners) l(event)
      })
    }
    s = { source, listeners }
    streams.set(url, s)
  }
  s.listeners.add(listener)
  return () => {
    s.listeners.delete(listener)
    if (!s.listeners.size) {
      s.source.close()
      streams.delete(url)
    }
  }
}

/**
 * Calls `onEvent` for each live event of the console's same-origin stream (`/events`, which the
 * console proxies to the API's SSE with the session's token). Only with JavaScript: without it pages
 * show everything on reload.
 */
export function useLiveEvents(onEvent: Listener, url = '/events') {
  const latest = useRef(onEvent)
  latest.current = onEvent
  useEffect(() => join(url, (e) => latest.current(e)), [url])
}
