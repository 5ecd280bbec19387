// The link checker against local fixtures (issue 25; never the internet): each provider's dead and
// alive page, plain HTTP failures, timeouts, redirect chains, the size cap — and the SSRF guard without
// LINK_CHECK_ALLOW_PRIVATE: loopback and private addresses, a redirect to one, a DNS answer that
// changes between the check and the connection.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { LinkFixture } from '../../../test/fakes/link-fixture.ts'
import { checkLink } from './check.ts'
import { refusedAddress, type Resolver } from './guard.ts'
import { PROVIDERS, providerOf } from './providers.ts'

let web: LinkFixture
/** A second server on another loopback address: what a rebinding or a redirect would reach for. */
let inside: LinkFixture
beforeAll(async () => {
  web = await LinkFixture.start('127.0.0.1')
  inside = await LinkFixture.start('127.0.0.2')
})
afterAll(async () => {
  await web.stop()
  await inside.stop()
})

/** Every name resolves to the fixture (tests with LINK_CHECK_ALLOW_PRIVATE on). */
const toFixture: Resolver = async () => [{ address: '127.0.0.1', family: 4 }]
const allowed = { resolver: toFixture, allowPrivate: true, timeoutMs: 2000 }

/** Each provider's page of a dead share, and of a live one (one marker of its table each). */
const PAGES: Record<string, { host: string; dead: string }> = {
  baidu: { host: 'pan.baidu.com', dead: '<title>百度网盘-链接不存在</title><div>啊哦，你来晚了，分享的文件已经被删除了</div>' },
  aliyun: { host: 'www.alipan.com', dead: '<div class="share-error">分享已取消</div>' },
  quark: { host: 'pan.quark.cn', dead: '<p>哎呀，该分享已被取消，无法访问</p>' },
  '123pan': { host: 'www.123pan.com', dead: '<h1>分享页面不存在</h1>' },
  lanzou: { host: 'wwi.lanzoux.com', dead: '<div class="off">来晚啦...文件取消分享了</div>' },
  tianyi: { host: 'cloud.189.cn', dead: '<span>分享链接已失效</span>' },
}

describe('providers', () => {
  it('has a dead and an alive page under test for every provider of the table', () => {
    expect(Object.keys(PAGES).sort()).toEqual(PROVIDERS.map((p) => p.name).sort())
    for (const [name, page] of Object.entries(PAGES)) expect(providerOf(page.host)?.name).toBe(name)
    expect(providerOf('aliyundrive.com')?.name).toBe('aliyun')
    expect(providerOf('example.com')).toBeUndefined()
  })

  it.each(Object.entries(PAGES))('%s: its dead page is dead, its live page ok', async (name, page) => {
    web.page(`/${name}/dead`, page.dead)
    web.page(`/${name}/alive`, `<html><title>${name} share</title><body>文件列表 report.pdf 12 MB 保存到网盘</body></html>`)
    const dead = await checkLink(web.url(`/${name}/dead`, page.host), allowed)
    expect(dead).toMatchObject({ result: 'dead', httpStatus: 200 })
    expect(dead.reason).toMatch(new RegExp(`^marker:${name}:`))
    expect(await checkLink(web.url(`/${name}/alive`, page.host), allowed)).toMatchObject({ result: 'ok', reason: null })
  })

  it('reads a marker only on its provider: another host with the same words is ok', async () => {
    web.page('/blog', '<p>常见提示：链接不存在、分享已取消</p>')
    expect((await checkLink(web.url('/blog', 'blog.example.com'), allowed)).result).toBe('ok')
  })
})

describe('plain HTTP', () => {
  it.each([404, 410])('%i is dead', async (code) => {
    expect(await checkLink(web.url(`/status/${code}`, 'files.example.com'), allowed)).toMatchObject({ result: 'dead', reason: `http_${code}`, httpStatus: code })
  })
  it.each([500, 503, 403, 429])('%i is unknown (the host did not answer clearly)', async (code) => {
    expect(await checkLink(web.url(`/status/${code}`, 'files.example.com'), allowed)).toMatchObject({ result: 'unknown', reason: `http_${code}` })
  })
  it('a host that never answers is unknown after the timeout', async () => {
    const started = Date.now()
    const r = await checkLink(web.url('/hang', 'slow.example.com'), { ...allowed, timeoutMs: 300 })
    expect(r).toMatchObject({ result: 'unknown', reason: 'timeout' })
    expect(Date.now() - started).toBeLessThan(2000)
  })
  it('a name that does not exist is dead; a refused connection unknown', async () => {
    const nx: Resolver = async () => {
      throw Object.assign(new Error('nx'), { code: 'ENOTFOUND' })
    }
    expect(await checkLink('https://gone.example.com/x', { resolver: nx, allowPrivate: true })).toMatchObject({ result: 'dead', reason: 'dns_not_found' })
    const closed = await LinkFixture.start('127.0.0.1')
    const url = closed.url('/x', 'down.example.com')
    await closed.stop()
    expect((await checkLink(url, allowed)).reason).toMatch(/^network:ECONNREFUSED/)
  })
  it('follows up to 5 redirects, not 6', async () => {
    expect(await checkLink(web.url('/redirect/5', 'r.example.com'), allowed)).toMatchObject({ result: 'ok', httpStatus: 200 })
    expect(await checkLink(web.url('/redirect/6', 'r.example.com'), allowed)).toMatchObject({ result: 'unknown', reason: 'too_many_redirects' })
  })
  it('reads at most the size cap of a body (a marker past it is not seen)', async () => {
    const r = await checkLink(web.url('/big', 'pan.baidu.com'), { ...allowed, maxBodyBytes: 64 * 1024 })
    expect(r.result).toBe('ok')
  })
  it('refuses what is not an http(s) URL', async () => {
    expect((await checkLink('ftp://x.example/y', allowed)).result).toBe('dead')
    expect((await checkLink('not a url', allowed)).reason).toBe('bad_url')
  })
})

describe('the SSRF guard (LINK_CHECK_ALLOW_PRIVATE off)', () => {
  it.each([
    '127.0.0.1',
    '10.0.0.8',
    '172.16.5.4',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.1.2',
    '224.0.0.1',
    '0.0.0.0',
    '::1',
    'fe80::1',
    'fd00:ec2::254',
    'fc00::5',
    '::ffff:127.0.0.1',
    '::ffff:10.1.1.1',
    '::ffff:a9fe:a9fe',
    '64:ff9b::7f00:1',
    '2002:c0a8:0101::1',
    'ff02::1',
  ])('refuses %s', (address) => {
    expect(refusedAddress(address)).toMatch(/^private_address:/)
  })
  it.each(['93.184.216.34', '8.8.8.8', '2606:4700:4700::1111', '::ffff:8.8.8.8'])('lets %s through', (address) => {
    expect(refusedAddress(address)).toBeNull()
  })

  it('never connects to a loopback or private answer', async () => {
    const before = web.requests
    expect(await checkLink(web.url('/'), { allowPrivate: false })).toMatchObject({ result: 'unknown', reason: 'refused:private_address:loopback' })
    const toPrivate: Resolver = async () => [{ address: '10.0.0.5', family: 4 }]
    expect((await checkLink('http://intranet.example.com/', { resolver: toPrivate, allowPrivate: false })).reason).toBe('refused:private_address:private')
    // A name answering a public and a private address is not trusted either.
    const mixed: Resolver = async () => [
      { address: '93.184.216.34', family: 4 },
      { address: '127.0.0.1', family: 4 },
    ]
    expect((await checkLink(web.url('/', 'mixed.example.com'), { resolver: mixed, allowPrivate: false })).reason).toBe('refused:private_address:loopback')
    expect(web.requests).toBe(before)
  })

  it('refuses a redirect to a private address, on every hop', async () => {
    // The fixture stands in for a public host (its address trusted); it redirects inside.
    const publicFixture: Resolver = async (name) => [{ address: name === 'inside.example.com' ? '127.0.0.2' : '127.0.0.1', family: 4 }]
    const insideBefore = inside.requests
    const viaName = await checkLink(web.url(`/to?url=${encodeURIComponent(inside.url('/secret', 'inside.example.com'))}`, 'public.example.com'), {
      resolver: publicFixture,
      allowPrivate: false,
      trustedAddresses: ['127.0.0.1'],
    })
    expect(viaName).toMatchObject({ result: 'unknown', reason: 'refused:private_address:loopback', httpStatus: 302 })
    const viaMetadata = await checkLink(web.url(`/to?url=${encodeURIComponent('http://169.254.169.254/latest/meta-data/')}`, 'public.example.com'), {
      resolver: publicFixture,
      allowPrivate: false,
      trustedAddresses: ['127.0.0.1'],
    })
    expect(viaMetadata.reason).toBe('refused:private_address:linkLocal')
    expect(inside.requests).toBe(insideBefore)
  })

  it('connects to the address it checked: a DNS answer that changes afterwards (rebinding) is never used', async () => {
    let asked = 0
    // First answer: the "public" fixture; every later answer: the inside server.
    const rebinding: Resolver = async () => [{ address: asked++ === 0 ? '127.0.0.1' : '127.0.0.2', family: 4 }]
    const [webBefore, insideBefore] = [web.requests, inside.requests]
    const r = await checkLink(web.url('/', 'rebind.example.com'), { resolver: rebinding, allowPrivate: false, trustedAddresses: ['127.0.0.1'] })
    expect(r.result).toBe('ok')
    expect(asked).toBe(1)
    expect(web.requests).toBe(webBefore + 1)
    expect(inside.requests).toBe(insideBefore)
    // The other order: the first answer is the private one — refused, nothing connected.
    asked = 1
    expect((await checkLink(web.url('/', 'rebind.example.com'), { resolver: rebinding, allowPrivate: false, trustedAddresses: ['127.0.0.1'] })).reason).toBe('refused:private_address:loopback')
    expect(inside.requests).toBe(insideBefore)
  })
})
