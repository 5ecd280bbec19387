import QRCode from 'qrcode'

/** A QR code as inline SVG markup, rendered on the server (no client JavaScript needed). */
export async function qrSvg(text: string, size = 200): Promise<string> {
  return QRCode.toString(text, { type: 'svg', errorCorrectionLevel: 'M', margin: 1, width: size })
}
