import dns from 'node:dns'
import net from 'node:net'
import ipaddr from 'ipaddr.js'

/**
 * The SSRF guard of the link checker (issue 25): a link may only reach a public unicast address. The
 * address classes come from ipaddr.js (decision 147): loopback, private, link-local, CGNAT, multicast,
 * unspecified, reserved, benchmarking, ULA (which holds fd00:ec2::254) and the cloud metadata address
 * 169.254.169.254 (link-local); an IPv4-mapped, NAT64 or 6to4 IPv6 address is judged as its IPv4 form.
 */
export function refusedAddress(address: string): string | null {
  if (!ipaddr.isValid(address)) return 'bad_address'
  let ip = ipaddr.parse(address)
  if (ip.kind() === 'ipv6') {
    const v6 = ip as ipaddr.IPv6
    if (v6.isIPv4MappedAddress()) ip = v6.toIPv4Address()
    else {
      const range = v6.range()
      const p = v6.parts
      // NAT64 (64:ff9b::/96) holds an IPv4 address in its last 32 bits, 6to4 (2002::/16) in bits 16–47: judge that one.
      if (range === 'rfc6052' || range === 'rfc6145') ip = new ipaddr.IPv4([p[6]! >> 8, p[6]! & 255, p[7]! >> 8, p[7]! & 255])
      else if (range === '6to4') ip = new ipaddr.IPv4([p[1]! >> 8, p[1]! & 255, p[2]! >> 8, p[2]! & 255])
    }
  }
  const range = ip.range()
  return range === 'unicast' ? null : `private_address:${range}`
}

/** A DNS answer: every address of a name (the checker's resolver; tests inject their own). */
export type Resolver = (hostname: string) => Promise<{ address: string; family: 4 | 6 }[]>

export const systemResolver: Resolver = async (hostname) => {
  const found = await dns.promises.lookup(hostname, { all: true, verbatim: true })
  return found.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }))
}

/** Refused by the guard: never connected. */
export class GuardRefusal extends Error {
  constructor(readonly reason: string) {
    super(reason)
  }
}

/**
 * Resolves a host once and picks the address to connect to: refused when any address of the answer is
 * not public (a name that mixes a public and a private address is not trusted either), unless
 * `allowPrivate`. The caller connects to exactly this address (the pinned lookup below), so a second
 * DNS answer — a rebinding — is never asked for.
 */
export async function pinAddress(hostname: string, resolver: Resolver, allowPrivate: boolean, trusted: readonly string[] = []): Promise<{ address: string; family: 4 | 6 }> {
  const bare = hostname.replace(/^\[|\]$/g, '')
  const answers = net.isIP(bare) ? [{ address: bare, family: net.isIP(bare) as 4 | 6 }] : await resolver(bare)
  if (answers.length === 0) throw new GuardRefusal('dns_empty')
  if (!allowPrivate) {
    for (const a of answers) {
      const refused = trusted.includes(a.address) ? null : refusedAddress(a.address)
      if (refused) throw new GuardRefusal(refused)
    }
  }
  return answers[0]!
}

/** A `lookup` for http.request that answers only the pinned address, whatever name it is asked for. */
export function pinnedLookup(pinned: { address: string; family: 4 | 6 }): net.LookupFunction {
  return ((_hostname: string, options: dns.LookupOptions, callback: (...args: unknown[]) => void) => {
    if (options?.all) callback(null, [{ address: pinned.address, family: pinned.family }])
    else callback(null, pinned.address, pinned.family)
  }) as net.LookupFunction
}
