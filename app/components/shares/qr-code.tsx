/** Shows server-rendered QR SVG markup (from app/.server/qr.ts; the markup is generated, not user text). */
export function QrCode({ svg, label, size = 200 }: { svg: string; label: string; size?: number }) {
  return <div role="img" aria-label={label} style={{ width: size, height: size }} dangerouslySetInnerHTML={{ __html: svg }} />
}
