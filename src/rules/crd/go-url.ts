/**
 * URLs as Go's `net/url.ParseRequestURI` reads them, which the API server's CEL URL library (`isURL`, `url`) and
 * the `uri` format use: an absolute URI (`https://host:port/path?query`, an empty host allowed) or an absolute
 * path; no control characters; a rootless rest after the scheme is opaque (`mailto:x`). Pure.
 */
export interface GoUrl {
  readonly scheme: string;
  readonly host: string;
  readonly path: string;
  readonly query: string;
}

const HOST_CHARS = /^[A-Za-z0-9\-._~!$&'()*+,;=:[\]<>"%]*$/;

/** The URL, or undefined where Go refuses it. */
export function parseRequestUri(raw: string): GoUrl | undefined {
  if (raw === '' || /[\u0000-\u001f\u007f]/.test(raw)) return undefined;
  const scheme = schemeOf(raw);
  if (scheme === undefined) return undefined;
  let rest = scheme === '' ? raw : raw.slice(scheme.length + 1);
  let query = '';
  const q = rest.indexOf('?');
  if (q !== -1) {
    query = rest.slice(q + 1);
    rest = rest.slice(0, q);
  }
  if (!rest.startsWith('/')) return scheme === '' ? undefined : { scheme, host: '', path: '', query };
  const { host, path } =
    scheme !== '' && rest.startsWith('//') ? authorityOf(rest) : { host: '', path: rest };
  if (!validHost(host) || !validEscapes(path)) return undefined;
  return { scheme: scheme.toLowerCase(), host, path, query };
}

/** `//user@host:port/path` → its host (user info dropped) and path. */
function authorityOf(rest: string): { host: string; path: string } {
  const slash = rest.indexOf('/', 2);
  const authority = slash === -1 ? rest.slice(2) : rest.slice(2, slash);
  const at = authority.lastIndexOf('@');
  return {
    host: at === -1 ? authority : authority.slice(at + 1),
    path: slash === -1 ? '' : rest.slice(slash),
  };
}

/** The scheme (`''` when there is none), or undefined for a leading `:`. */
function schemeOf(raw: string): string | undefined {
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i]!;
    if (/[A-Za-z]/.test(c)) continue;
    if (/[0-9+.-]/.test(c)) {
      if (i === 0) return '';
      continue;
    }
    if (c === ':') return i === 0 ? undefined : raw.slice(0, i);
    return '';
  }
  return '';
}

function validHost(host: string): boolean {
  if (!HOST_CHARS.test(host) || !validEscapes(host)) return false;
  if (host.startsWith('[')) {
    const end = host.indexOf(']');
    if (end === -1) return false;
    return /^(:[0-9]*)?$/.test(host.slice(end + 1));
  }
  const colon = host.lastIndexOf(':');
  return colon === -1 || /^[0-9]*$/.test(host.slice(colon + 1));
}

function validEscapes(s: string): boolean {
  return !/%(?![0-9A-Fa-f]{2})/.test(s);
}

/** The host without its port and brackets (Go's `URL.Hostname`). */
export function hostnameOf(u: GoUrl): string {
  const { host } = u;
  if (host.startsWith('[')) return host.slice(1, host.indexOf(']'));
  const colon = host.lastIndexOf(':');
  return colon === -1 ? host : host.slice(0, colon);
}

/** The port, or `''` (Go's `URL.Port`). */
export function portOf(u: GoUrl): string {
  const { host } = u;
  const colon = host.lastIndexOf(':');
  if (colon === -1 || (host.startsWith('[') && colon < host.indexOf(']'))) return '';
  return host.slice(colon + 1);
}
