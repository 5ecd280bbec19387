// The console's `/events` relay (issue 22, decision 138): a reconnecting EventSource's Last-Event-ID goes
// on to the API, events pass whole (never half of one), and a stopping console ends the stream with
// the reconnect hint.
import { afterAll, describe, expect, it, vi } from 'vitest'
import { EVENTS_PATH, SSE_GOODBYE } from '#contract/messages.ts'
import { args, get, sessionCookie } from '../../tests/support/console.ts'
import { drainLiveStreams } from '#app/.server/live-streams.ts'
import { loader } from './events.tsx'

const stub = await vi.hoisted(async () => (await import('../../tests/support/api-stub.ts')).startApiStub())
afterAll(() => stub.close())

const read = async (res: Response) => new TextDecoder().decode(new Uint8Array(await new Response(res.body).arrayBuffer()))
const WHOLE = 'id: 7\nevent: read\ndata: {"type":"read"}\n\n'

describe('GET /events', () => {
  it('passes Last-Event-ID on and relays whole events only', async () => {
    stub.onPath(`GET ${EVENTS_PATH}`, { raw: `${WHOLE}id: 8\nevent: re`, status: 200 })
    const request = get('/events', await sessionCookie('buyer-token'))
    request.headers.set('last-event-id', '6')
    const res = await loader(args(request))
    expect(res.status).toBe(200)
    expect(await read(res)).toBe(WHOLE)
    const call = stub.callsTo(EVENTS_PATH).at(-1)!
    expect([call.headers['last-event-id'], call.headers.authorization]).toEqual(['6', 'Bearer buyer-token'])
  })

  it('without Last-Event-ID sends none; a stopping console ends the stream with the reconnect hint', async () => {
    stub.onPath(`GET ${EVENTS_PATH}`, { raw: WHOLE, status: 200 })
    const res = await loader(args(get('/events', await sessionCookie('buyer-token'))))
    expect(stub.callsTo(EVENTS_PATH).at(-1)!.headers['last-event-id']).toBeUndefined()
    expect(drainLiveStreams()).toBe(1)
    expect(await read(res)).toBe(SSE_GOODBYE)
    expect(drainLiveStreams()).toBe(0)
  })
})
