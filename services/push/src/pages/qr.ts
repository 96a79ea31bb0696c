import QRCode from 'qrcode';
import { type Html, trusted } from '@secret-push/html';

/**
 * The QR image as inline SVG, generated on the server by `qrcode` (no script, no third-party
 * service). The SVG holds only paths and colours computed from the payload, never its text.
 */
export async function qrSvg(text: string): Promise<Html> {
  const svg = await QRCode.toString(text, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
  return trusted(svg.replace('<svg ', '<svg aria-hidden="true" focusable="false" '));
}
