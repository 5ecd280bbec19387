/**
 * The netdisks whose dead pages the checker recognises (issue 25). One entry per provider: the hosts it
 * serves, the HTTP statuses that mean its share is gone, and the markers its dead share page carries
 * in the body. To add a provider, add an entry; `providers.test.ts` runs each one's dead and alive page.
 */
export type Provider = {
  name: string
  /** The host and its subdomains. */
  hosts: readonly (string | RegExp)[]
  /** Statuses that mean the share is gone (404 and 410 mean it for every host). */
  deadStatuses?: readonly number[]
  /** Text found only on the provider's page of a dead share. */
  deadMarkers: readonly string[]
}

export const PROVIDERS: readonly Provider[] = [
  {
    name: 'baidu',
    hosts: ['pan.baidu.com', 'yun.baidu.com'],
    deadMarkers: ['链接不存在', '分享的文件已经被取消', '分享已取消', '啊哦，你来晚了', '你来晚了', '此链接分享内容可能因为涉及侵权', '链接已过期', '分享已过期', '你所访问的页面不存在了'],
  },
  {
    name: 'aliyun',
    hosts: ['aliyundrive.com', 'alipan.com'],
    deadMarkers: ['分享已取消', '分享已过期', '来晚啦', '文件已被删除', '该分享已失效', 'ShareLink.Cancelled', 'ShareLink.Forbidden', 'share_link is cancelled'],
  },
  {
    name: 'quark',
    hosts: ['pan.quark.cn'],
    deadMarkers: ['分享已失效', '该分享已被取消', '文件已被分享者删除', '分享地址已失效', '来晚了', '文件涉及违规'],
  },
  {
    name: '123pan',
    hosts: ['123pan.com', '123pan.cn', '123684.com', '123865.com', '123912.com'],
    deadMarkers: ['分享页面不存在', '分享链接已失效', '文件已被删除', '分享已取消', '来晚了'],
  },
  {
    name: 'lanzou',
    hosts: [/(^|\.)lanzou[a-z]?\.com$/, /(^|\.)lanzn\.com$/],
    deadMarkers: ['文件取消分享了', '来晚啦', '文件不存在', '分享已取消', '已失效'],
  },
  {
    name: 'tianyi',
    hosts: ['cloud.189.cn'],
    deadMarkers: ['分享链接已失效', '链接不存在', '分享已取消', '文件已删除', '来晚了', '已失效'],
  },
]

const hostMatches = (host: string, pattern: string | RegExp) => (typeof pattern === 'string' ? host === pattern || host.endsWith(`.${pattern}`) : pattern.test(host))

/** The provider serving a host, if it is one of the table's. */
export function providerOf(host: string): Provider | undefined {
  const h = host.toLowerCase().replace(/\.$/, '')
  return PROVIDERS.find((p) => p.hosts.some((pattern) => hostMatches(h, pattern)))
}

/** Why a page is a dead share of its provider (`marker:<provider>:<text>`), or null. */
export function deadMarker(host: string, status: number, body: string): string | null {
  const provider = providerOf(host)
  if (!provider) return null
  if (provider.deadStatuses?.includes(status)) return `status:${provider.name}:${status}`
  const found = provider.deadMarkers.find((m) => body.includes(m))
  return found ? `marker:${provider.name}:${found}` : null
}
