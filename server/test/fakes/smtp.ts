// A local SMTP server (the `smtp-server` package, a real SMTP dialogue) that keeps every message it is
// given, so code delivery can be tested end to end without a mail provider.
import type { AddressInfo } from 'node:net'
import { SMTPServer } from 'smtp-server'

export type CapturedMail = {
  /** Envelope sender and recipients (MAIL FROM / RCPT TO). */
  mailFrom: string
  rcptTo: string[]
  /** Decoded headers and text body. */
  subject: string
  from: string
  to: string
  text: string
  raw: string
  /** The first 6-digit number in the text: the verification code. */
  code: string | null
}

export type SmtpFake = {
  port: number
  /** For `SmtpSender`: plain SMTP on 127.0.0.1 (the fake offers no STARTTLS). */
  url: string
  messages: CapturedMail[]
  /** Messages to one recipient, newest first. */
  to: (address: string) => CapturedMail[]
  /** Refuse recipients matching this (550), to test a delivery failure. */
  rejectRecipient: (match: ((address: string) => boolean) | null) => void
  close: () => Promise<void>
}

export async function startSmtpFake(): Promise<SmtpFake> {
  const messages: CapturedMail[] = []
  let reject: ((address: string) => boolean) | null = null
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onRcptTo(address, _session, callback) {
      if (reject?.(address.address)) {
        const err = Object.assign(new Error('Mailbox unavailable'), { responseCode: 550 })
        return callback(err)
      }
      callback()
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = []
      stream.on('data', (c: Buffer) => chunks.push(c))
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8')
        const parsed = parseMessage(raw)
        messages.push({
          mailFrom: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          rcptTo: session.envelope.rcptTo.map((r) => r.address),
          ...parsed,
          raw,
          code: /(?<!\d)(\d{6})(?!\d)/.exec(parsed.text)?.[1] ?? null,
        })
        callback()
      })
    },
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => resolve())
  })
  const port = (server.server.address() as AddressInfo).port
  return {
    port,
    url: `smtp://127.0.0.1:${port}`,
    messages,
    to: (address) => messages.filter((m) => m.rcptTo.includes(address)).reverse(),
    rejectRecipient: (match) => {
      reject = match
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

// ---- a small MIME reader: enough for what nodemailer sends (single part or multipart, B/Q encodings) ----

type Part = { headers: Map<string, string>; body: string }

function splitPart(raw: string): Part {
  const at = raw.search(/\r?\n\r?\n/)
  const head = at < 0 ? raw : raw.slice(0, at)
  const body = at < 0 ? '' : raw.slice(at).replace(/^\r?\n\r?\n/, '')
  const headers = new Map<string, string>()
  // Unfold continuation lines, then split "Name: value".
  for (const line of head.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const i = line.indexOf(':')
    if (i > 0) headers.set(line.slice(0, i).trim().toLowerCase(), line.slice(i + 1).trim())
  }
  return { headers, body }
}

function decodeQuotedPrintable(s: string): Buffer {
  const soft = s.replace(/=\r?\n/g, '')
  const bytes: number[] = []
  for (let i = 0; i < soft.length; i++) {
    if (soft[i] === '=' && /^[0-9A-Fa-f]{2}$/.test(soft.slice(i + 1, i + 3))) {
      bytes.push(parseInt(soft.slice(i + 1, i + 3), 16))
      i += 2
    } else bytes.push(...Buffer.from(soft[i]!, 'utf8'))
  }
  return Buffer.from(bytes)
}

function decodeBody(part: Part): string {
  const encoding = (part.headers.get('content-transfer-encoding') ?? '7bit').toLowerCase()
  if (encoding === 'base64') return Buffer.from(part.body.replace(/\s+/g, ''), 'base64').toString('utf8')
  if (encoding === 'quoted-printable') return decodeQuotedPrintable(part.body).toString('utf8')
  return part.body
}

/** RFC 2047 encoded words (`=?UTF-8?B?…?=`, `=?UTF-8?Q?…?=`) in a header value. */
export function decodeHeader(value: string): string {
  return value.replace(/=\?([^?]+)\?([BbQq])\?([^?]*)\?=(\s+(?==\?))?/g, (_m, _charset: string, enc: string, text: string) =>
    enc.toUpperCase() === 'B' ? Buffer.from(text, 'base64').toString('utf8') : decodeQuotedPrintable(text.replace(/_/g, ' ')).toString('utf8'),
  )
}

function textOf(part: Part): string | null {
  const type = part.headers.get('content-type') ?? 'text/plain'
  const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1]
  if (/^multipart\//i.test(type) && boundary) {
    const pieces = part.body.split(`--${boundary}`).slice(1)
    for (const piece of pieces) {
      if (piece.startsWith('--')) break
      const found = textOf(splitPart(piece.replace(/^\r?\n/, '')))
      if (found !== null) return found
    }
    return null
  }
  return /^text\/plain/i.test(type) ? decodeBody(part) : null
}

export function parseMessage(raw: string): { subject: string; from: string; to: string; text: string } {
  const top = splitPart(raw)
  return {
    subject: decodeHeader(top.headers.get('subject') ?? ''),
    from: decodeHeader(top.headers.get('from') ?? ''),
    to: decodeHeader(top.headers.get('to') ?? ''),
    text: textOf(top) ?? '',
  }
}
