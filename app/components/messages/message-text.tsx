import { splitLinks } from '#app/utils/links.ts'

/** A message as plain text with its web addresses clickable (never HTML). */
export function MessageText({ text }: { text: string }) {
  return (
    <span style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
      {splitLinks(text).map((p, i) =>
        p.kind === 'link' ? (
          <a key={i} href={p.href} target="_blank" rel="noopener noreferrer nofollow ugc">
            {p.text}
          </a>
        ) : (
          p.text
        ),
      )}
    </span>
  )
}
