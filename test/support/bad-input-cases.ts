/**
 * The bad-input cases of the spec-file door, shared by the two tests that use them: `test/specs/bad-input.test.ts`
 * (the command line refuses each, naming file and field, and leaves dist/ untouched) and
 * `test/constructs/bad-input-parity.test.ts` (the constructs, given the same values as props, refuse each with the
 * same field and message). One list: a case added here is checked through both doors.
 */
/**
 * Every case: a chart holding one broken spec next to a valid one. `specforge render` must exit 1, name the file
 * and the field in its message, and leave the previously rendered dist/ exactly as it was.
 */
export interface BadInputCase {
  readonly name: string;
  readonly files: Readonly<Record<string, string>>;
  /** Substrings the error output must contain: at least the file and the field. */
  readonly expect: readonly string[];
}

export const app = (spec: string, meta = 'name: web'): string =>
  `apiVersion: apps.specforge.dev/v1alpha1\nkind: AppService\nmetadata:\n  ${meta}\nspec:\n${spec}`;
export const myapp = (spec: string): string =>
  `apiVersion: myapp.timd.cn/v1\nkind: Myapp\nmetadata:\n  name: shop\nspec:\n${spec}`;
export const pool = (spec: string, meta = 'name: gpu'): string =>
  `apiVersion: nodes.lailin.xyz/v1\nkind: NodePool\nmetadata:\n  ${meta}\nspec:\n${spec}`;
export const podroute = (spec: string): string =>
  `apiVersion: quay.io/v1alpha1\nkind: Podroute\nmetadata:\n  name: hello\nspec:\n${spec}`;
export const okPorts = '  image: nginx\n  ports:\n    - port: 80\n';

export const badInputCases: readonly BadInputCase[] = [
  {
    name: 'a YAML syntax error',
    files: { 'a/x.yaml': 'kind: AppService\nmetadata: [\n' },
    expect: ['a/x.yaml:', 'valid YAML'],
  },
  {
    name: 'tabs used for indentation',
    files: { 'a/x.yaml': 'kind: AppService\nspec:\n\timage: x\n' },
    expect: ['a/x.yaml:3', 'valid YAML'],
  },
  {
    name: 'a duplicate key',
    files: { 'a/x.yaml': app(okPorts + '  image: again\n') },
    expect: ['a/x.yaml:', 'duplicated mapping key'],
  },
  {
    name: 'an unknown kind',
    files: { 'a/x.yaml': 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec: {}\n' },
    expect: ['a/x.yaml:2:7 (document 1) kind', 'one of AppService, Myapp, Podroute, NodePool', '"Pod"'],
  },
  {
    name: 'a missing kind',
    files: { 'a/x.yaml': 'apiVersion: v1\nmetadata:\n  name: p\n' },
    expect: ['a/x.yaml', 'kind:', 'found nothing'],
  },
  {
    name: 'an unknown apiVersion',
    files: { 'a/x.yaml': app(okPorts).replace('apps.specforge.dev/v1alpha1', 'apps/v1') },
    expect: ['a/x.yaml:1:13 (document 1) apiVersion', 'batch.schwarzeni.github.com/v1alpha1', '"apps/v1"'],
  },
  {
    name: 'a missing name',
    files: { 'a/x.yaml': app(okPorts, 'labels: {a: b}') },
    expect: ['a/x.yaml', 'metadata.name', 'required'],
  },
  {
    name: 'a missing image',
    files: { 'a/x.yaml': app('  ports:\n    - port: 80\n') },
    expect: ['a/x.yaml:6:3 (document 1) spec.image', 'required'],
  },
  {
    name: 'negative replicas',
    files: { 'a/x.yaml': app(okPorts + '  replicas: -2\n') },
    expect: ['a/x.yaml:9:13 (document 1) spec.replicas', 'from 0 to', 'found -2'],
  },
  {
    name: 'Myapp replicas above 1000',
    files: { 'a/x.yaml': myapp('  image: shop:1\n  containerPort: 80\n  replicas: 5000\n') },
    expect: ['spec.replicas', 'from 1 to 1000', '5000'],
  },
  {
    name: 'replicas given as a string',
    files: { 'a/x.yaml': app(okPorts + '  replicas: "3"\n') },
    expect: ['spec.replicas', 'type integer', '"3"'],
  },
  {
    name: 'a port above 65535',
    files: { 'a/x.yaml': app('  image: nginx\n  ports:\n    - port: 70000\n') },
    expect: ['a/x.yaml:8:13 (document 1) spec.ports[0].port', 'from 1 to 65535', '70000'],
  },
  {
    name: 'an empty image and a port of 0 (the seed bug)',
    files: { 'a/x.yaml': app('  image: ""\n  ports:\n    - port: 0\n') },
    expect: ['a/x.yaml:6:10 (document 1) spec.image', 'spec.ports[0].port', 'found 0'],
  },
  {
    name: 'a number kubectl reads as octal (012)',
    files: { 'a/x.yaml': app(okPorts + '  replicas: 012\n') },
    expect: [
      'a/x.yaml:9:13 (document 1) spec.replicas',
      'kubectl reads as the octal number 10 and YAML 1.2 as the number 12',
      'Quote it',
    ],
  },
  {
    name: 'a yes that kubectl reads as a boolean',
    files: { 'a/x.yaml': app(okPorts + '  envs:\n    - name: DEBUG\n      value: yes\n') },
    expect: ['spec.envs[0].value', 'kubectl reads as the boolean true and YAML 1.2 as the string "yes"'],
  },
  {
    name: 'a merge key (<<), which kubectl merges and YAML 1.2 does not',
    files: { 'a/x.yaml': app(okPorts + '  <<: { replicas: 2 }\n') },
    expect: ['spec["<<"]', 'no merge key'],
  },
  {
    name: 'a null key (~)',
    files: { 'a/x.yaml': app(okPorts, 'name: web\n  labels:\n    ~: x') },
    expect: ['metadata.labels["~"]', 'a null key "~"'],
  },
  {
    name: 'aliases that expand past the API server request limit (billion laughs)',
    files: {
      'a/x.yaml': app(
        '  image: nginx\n  ports:\n    - port: 80\n  envs:\n    - name: A\n      valueFrom:\n        l0: &l0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]\n        l1: &l1 [*l0,*l0,*l0,*l0,*l0,*l0,*l0,*l0,*l0]\n        l2: &l2 [*l1,*l1,*l1,*l1,*l1,*l1,*l1,*l1,*l1]\n        l3: &l3 [*l2,*l2,*l2,*l2,*l2,*l2,*l2,*l2,*l2]\n        l4: &l4 [*l3,*l3,*l3,*l3,*l3,*l3,*l3,*l3,*l3]\n        l5: &l5 [*l4,*l4,*l4,*l4,*l4,*l4,*l4,*l4,*l4]\n        l6: &l6 [*l5,*l5,*l5,*l5,*l5,*l5,*l5,*l5,*l5]\n        l7: &l7 [*l6,*l6,*l6,*l6,*l6,*l6,*l6,*l6,*l6]\n        l8: &l8 [*l7,*l7,*l7,*l7,*l7,*l7,*l7,*l7,*l7]\n',
      ),
    },
    expect: ['a/x.yaml', '(document 1)', 'at most 3 MiB once aliases are expanded'],
  },
  {
    name: 'more than 1,000 aliases in one document',
    files: {
      'a/x.yaml': app(
        '  image: nginx\n  ports:\n    - port: 80\n  resources:\n    limits: &q {cpu: "1"}\n    x0: *q\n    x1: *q\n    x2: *q\n    x3: *q\n    x4: *q\n    x5: *q\n    x6: *q\n    x7: *q\n    x8: *q\n    x9: *q\n    x10: *q\n    x11: *q\n    x12: *q\n    x13: *q\n    x14: *q\n    x15: *q\n    x16: *q\n    x17: *q\n    x18: *q\n    x19: *q\n    x20: *q\n    x21: *q\n    x22: *q\n    x23: *q\n    x24: *q\n    x25: *q\n    x26: *q\n    x27: *q\n    x28: *q\n    x29: *q\n    x30: *q\n    x31: *q\n    x32: *q\n    x33: *q\n    x34: *q\n    x35: *q\n    x36: *q\n    x37: *q\n    x38: *q\n    x39: *q\n    x40: *q\n    x41: *q\n    x42: *q\n    x43: *q\n    x44: *q\n    x45: *q\n    x46: *q\n    x47: *q\n    x48: *q\n    x49: *q\n    x50: *q\n    x51: *q\n    x52: *q\n    x53: *q\n    x54: *q\n    x55: *q\n    x56: *q\n    x57: *q\n    x58: *q\n    x59: *q\n    x60: *q\n    x61: *q\n    x62: *q\n    x63: *q\n    x64: *q\n    x65: *q\n    x66: *q\n    x67: *q\n    x68: *q\n    x69: *q\n    x70: *q\n    x71: *q\n    x72: *q\n    x73: *q\n    x74: *q\n    x75: *q\n    x76: *q\n    x77: *q\n    x78: *q\n    x79: *q\n    x80: *q\n    x81: *q\n    x82: *q\n    x83: *q\n    x84: *q\n    x85: *q\n    x86: *q\n    x87: *q\n    x88: *q\n    x89: *q\n    x90: *q\n    x91: *q\n    x92: *q\n    x93: *q\n    x94: *q\n    x95: *q\n    x96: *q\n    x97: *q\n    x98: *q\n    x99: *q\n    x100: *q\n    x101: *q\n    x102: *q\n    x103: *q\n    x104: *q\n    x105: *q\n    x106: *q\n    x107: *q\n    x108: *q\n    x109: *q\n    x110: *q\n    x111: *q\n    x112: *q\n    x113: *q\n    x114: *q\n    x115: *q\n    x116: *q\n    x117: *q\n    x118: *q\n    x119: *q\n    x120: *q\n    x121: *q\n    x122: *q\n    x123: *q\n    x124: *q\n    x125: *q\n    x126: *q\n    x127: *q\n    x128: *q\n    x129: *q\n    x130: *q\n    x131: *q\n    x132: *q\n    x133: *q\n    x134: *q\n    x135: *q\n    x136: *q\n    x137: *q\n    x138: *q\n    x139: *q\n    x140: *q\n    x141: *q\n    x142: *q\n    x143: *q\n    x144: *q\n    x145: *q\n    x146: *q\n    x147: *q\n    x148: *q\n    x149: *q\n    x150: *q\n    x151: *q\n    x152: *q\n    x153: *q\n    x154: *q\n    x155: *q\n    x156: *q\n    x157: *q\n    x158: *q\n    x159: *q\n    x160: *q\n    x161: *q\n    x162: *q\n    x163: *q\n    x164: *q\n    x165: *q\n    x166: *q\n    x167: *q\n    x168: *q\n    x169: *q\n    x170: *q\n    x171: *q\n    x172: *q\n    x173: *q\n    x174: *q\n    x175: *q\n    x176: *q\n    x177: *q\n    x178: *q\n    x179: *q\n    x180: *q\n    x181: *q\n    x182: *q\n    x183: *q\n    x184: *q\n    x185: *q\n    x186: *q\n    x187: *q\n    x188: *q\n    x189: *q\n    x190: *q\n    x191: *q\n    x192: *q\n    x193: *q\n    x194: *q\n    x195: *q\n    x196: *q\n    x197: *q\n    x198: *q\n    x199: *q\n    x200: *q\n    x201: *q\n    x202: *q\n    x203: *q\n    x204: *q\n    x205: *q\n    x206: *q\n    x207: *q\n    x208: *q\n    x209: *q\n    x210: *q\n    x211: *q\n    x212: *q\n    x213: *q\n    x214: *q\n    x215: *q\n    x216: *q\n    x217: *q\n    x218: *q\n    x219: *q\n    x220: *q\n    x221: *q\n    x222: *q\n    x223: *q\n    x224: *q\n    x225: *q\n    x226: *q\n    x227: *q\n    x228: *q\n    x229: *q\n    x230: *q\n    x231: *q\n    x232: *q\n    x233: *q\n    x234: *q\n    x235: *q\n    x236: *q\n    x237: *q\n    x238: *q\n    x239: *q\n    x240: *q\n    x241: *q\n    x242: *q\n    x243: *q\n    x244: *q\n    x245: *q\n    x246: *q\n    x247: *q\n    x248: *q\n    x249: *q\n    x250: *q\n    x251: *q\n    x252: *q\n    x253: *q\n    x254: *q\n    x255: *q\n    x256: *q\n    x257: *q\n    x258: *q\n    x259: *q\n    x260: *q\n    x261: *q\n    x262: *q\n    x263: *q\n    x264: *q\n    x265: *q\n    x266: *q\n    x267: *q\n    x268: *q\n    x269: *q\n    x270: *q\n    x271: *q\n    x272: *q\n    x273: *q\n    x274: *q\n    x275: *q\n    x276: *q\n    x277: *q\n    x278: *q\n    x279: *q\n    x280: *q\n    x281: *q\n    x282: *q\n    x283: *q\n    x284: *q\n    x285: *q\n    x286: *q\n    x287: *q\n    x288: *q\n    x289: *q\n    x290: *q\n    x291: *q\n    x292: *q\n    x293: *q\n    x294: *q\n    x295: *q\n    x296: *q\n    x297: *q\n    x298: *q\n    x299: *q\n    x300: *q\n    x301: *q\n    x302: *q\n    x303: *q\n    x304: *q\n    x305: *q\n    x306: *q\n    x307: *q\n    x308: *q\n    x309: *q\n    x310: *q\n    x311: *q\n    x312: *q\n    x313: *q\n    x314: *q\n    x315: *q\n    x316: *q\n    x317: *q\n    x318: *q\n    x319: *q\n    x320: *q\n    x321: *q\n    x322: *q\n    x323: *q\n    x324: *q\n    x325: *q\n    x326: *q\n    x327: *q\n    x328: *q\n    x329: *q\n    x330: *q\n    x331: *q\n    x332: *q\n    x333: *q\n    x334: *q\n    x335: *q\n    x336: *q\n    x337: *q\n    x338: *q\n    x339: *q\n    x340: *q\n    x341: *q\n    x342: *q\n    x343: *q\n    x344: *q\n    x345: *q\n    x346: *q\n    x347: *q\n    x348: *q\n    x349: *q\n    x350: *q\n    x351: *q\n    x352: *q\n    x353: *q\n    x354: *q\n    x355: *q\n    x356: *q\n    x357: *q\n    x358: *q\n    x359: *q\n    x360: *q\n    x361: *q\n    x362: *q\n    x363: *q\n    x364: *q\n    x365: *q\n    x366: *q\n    x367: *q\n    x368: *q\n    x369: *q\n    x370: *q\n    x371: *q\n    x372: *q\n    x373: *q\n    x374: *q\n    x375: *q\n    x376: *q\n    x377: *q\n    x378: *q\n    x379: *q\n    x380: *q\n    x381: *q\n    x382: *q\n    x383: *q\n    x384: *q\n    x385: *q\n    x386: *q\n    x387: *q\n    x388: *q\n    x389: *q\n    x390: *q\n    x391: *q\n    x392: *q\n    x393: *q\n    x394: *q\n    x395: *q\n    x396: *q\n    x397: *q\n    x398: *q\n    x399: *q\n    x400: *q\n    x401: *q\n    x402: *q\n    x403: *q\n    x404: *q\n    x405: *q\n    x406: *q\n    x407: *q\n    x408: *q\n    x409: *q\n    x410: *q\n    x411: *q\n    x412: *q\n    x413: *q\n    x414: *q\n    x415: *q\n    x416: *q\n    x417: *q\n    x418: *q\n    x419: *q\n    x420: *q\n    x421: *q\n    x422: *q\n    x423: *q\n    x424: *q\n    x425: *q\n    x426: *q\n    x427: *q\n    x428: *q\n    x429: *q\n    x430: *q\n    x431: *q\n    x432: *q\n    x433: *q\n    x434: *q\n    x435: *q\n    x436: *q\n    x437: *q\n    x438: *q\n    x439: *q\n    x440: *q\n    x441: *q\n    x442: *q\n    x443: *q\n    x444: *q\n    x445: *q\n    x446: *q\n    x447: *q\n    x448: *q\n    x449: *q\n    x450: *q\n    x451: *q\n    x452: *q\n    x453: *q\n    x454: *q\n    x455: *q\n    x456: *q\n    x457: *q\n    x458: *q\n    x459: *q\n    x460: *q\n    x461: *q\n    x462: *q\n    x463: *q\n    x464: *q\n    x465: *q\n    x466: *q\n    x467: *q\n    x468: *q\n    x469: *q\n    x470: *q\n    x471: *q\n    x472: *q\n    x473: *q\n    x474: *q\n    x475: *q\n    x476: *q\n    x477: *q\n    x478: *q\n    x479: *q\n    x480: *q\n    x481: *q\n    x482: *q\n    x483: *q\n    x484: *q\n    x485: *q\n    x486: *q\n    x487: *q\n    x488: *q\n    x489: *q\n    x490: *q\n    x491: *q\n    x492: *q\n    x493: *q\n    x494: *q\n    x495: *q\n    x496: *q\n    x497: *q\n    x498: *q\n    x499: *q\n    x500: *q\n    x501: *q\n    x502: *q\n    x503: *q\n    x504: *q\n    x505: *q\n    x506: *q\n    x507: *q\n    x508: *q\n    x509: *q\n    x510: *q\n    x511: *q\n    x512: *q\n    x513: *q\n    x514: *q\n    x515: *q\n    x516: *q\n    x517: *q\n    x518: *q\n    x519: *q\n    x520: *q\n    x521: *q\n    x522: *q\n    x523: *q\n    x524: *q\n    x525: *q\n    x526: *q\n    x527: *q\n    x528: *q\n    x529: *q\n    x530: *q\n    x531: *q\n    x532: *q\n    x533: *q\n    x534: *q\n    x535: *q\n    x536: *q\n    x537: *q\n    x538: *q\n    x539: *q\n    x540: *q\n    x541: *q\n    x542: *q\n    x543: *q\n    x544: *q\n    x545: *q\n    x546: *q\n    x547: *q\n    x548: *q\n    x549: *q\n    x550: *q\n    x551: *q\n    x552: *q\n    x553: *q\n    x554: *q\n    x555: *q\n    x556: *q\n    x557: *q\n    x558: *q\n    x559: *q\n    x560: *q\n    x561: *q\n    x562: *q\n    x563: *q\n    x564: *q\n    x565: *q\n    x566: *q\n    x567: *q\n    x568: *q\n    x569: *q\n    x570: *q\n    x571: *q\n    x572: *q\n    x573: *q\n    x574: *q\n    x575: *q\n    x576: *q\n    x577: *q\n    x578: *q\n    x579: *q\n    x580: *q\n    x581: *q\n    x582: *q\n    x583: *q\n    x584: *q\n    x585: *q\n    x586: *q\n    x587: *q\n    x588: *q\n    x589: *q\n    x590: *q\n    x591: *q\n    x592: *q\n    x593: *q\n    x594: *q\n    x595: *q\n    x596: *q\n    x597: *q\n    x598: *q\n    x599: *q\n    x600: *q\n    x601: *q\n    x602: *q\n    x603: *q\n    x604: *q\n    x605: *q\n    x606: *q\n    x607: *q\n    x608: *q\n    x609: *q\n    x610: *q\n    x611: *q\n    x612: *q\n    x613: *q\n    x614: *q\n    x615: *q\n    x616: *q\n    x617: *q\n    x618: *q\n    x619: *q\n    x620: *q\n    x621: *q\n    x622: *q\n    x623: *q\n    x624: *q\n    x625: *q\n    x626: *q\n    x627: *q\n    x628: *q\n    x629: *q\n    x630: *q\n    x631: *q\n    x632: *q\n    x633: *q\n    x634: *q\n    x635: *q\n    x636: *q\n    x637: *q\n    x638: *q\n    x639: *q\n    x640: *q\n    x641: *q\n    x642: *q\n    x643: *q\n    x644: *q\n    x645: *q\n    x646: *q\n    x647: *q\n    x648: *q\n    x649: *q\n    x650: *q\n    x651: *q\n    x652: *q\n    x653: *q\n    x654: *q\n    x655: *q\n    x656: *q\n    x657: *q\n    x658: *q\n    x659: *q\n    x660: *q\n    x661: *q\n    x662: *q\n    x663: *q\n    x664: *q\n    x665: *q\n    x666: *q\n    x667: *q\n    x668: *q\n    x669: *q\n    x670: *q\n    x671: *q\n    x672: *q\n    x673: *q\n    x674: *q\n    x675: *q\n    x676: *q\n    x677: *q\n    x678: *q\n    x679: *q\n    x680: *q\n    x681: *q\n    x682: *q\n    x683: *q\n    x684: *q\n    x685: *q\n    x686: *q\n    x687: *q\n    x688: *q\n    x689: *q\n    x690: *q\n    x691: *q\n    x692: *q\n    x693: *q\n    x694: *q\n    x695: *q\n    x696: *q\n    x697: *q\n    x698: *q\n    x699: *q\n    x700: *q\n    x701: *q\n    x702: *q\n    x703: *q\n    x704: *q\n    x705: *q\n    x706: *q\n    x707: *q\n    x708: *q\n    x709: *q\n    x710: *q\n    x711: *q\n    x712: *q\n    x713: *q\n    x714: *q\n    x715: *q\n    x716: *q\n    x717: *q\n    x718: *q\n    x719: *q\n    x720: *q\n    x721: *q\n    x722: *q\n    x723: *q\n    x724: *q\n    x725: *q\n    x726: *q\n    x727: *q\n    x728: *q\n    x729: *q\n    x730: *q\n    x731: *q\n    x732: *q\n    x733: *q\n    x734: *q\n    x735: *q\n    x736: *q\n    x737: *q\n    x738: *q\n    x739: *q\n    x740: *q\n    x741: *q\n    x742: *q\n    x743: *q\n    x744: *q\n    x745: *q\n    x746: *q\n    x747: *q\n    x748: *q\n    x749: *q\n    x750: *q\n    x751: *q\n    x752: *q\n    x753: *q\n    x754: *q\n    x755: *q\n    x756: *q\n    x757: *q\n    x758: *q\n    x759: *q\n    x760: *q\n    x761: *q\n    x762: *q\n    x763: *q\n    x764: *q\n    x765: *q\n    x766: *q\n    x767: *q\n    x768: *q\n    x769: *q\n    x770: *q\n    x771: *q\n    x772: *q\n    x773: *q\n    x774: *q\n    x775: *q\n    x776: *q\n    x777: *q\n    x778: *q\n    x779: *q\n    x780: *q\n    x781: *q\n    x782: *q\n    x783: *q\n    x784: *q\n    x785: *q\n    x786: *q\n    x787: *q\n    x788: *q\n    x789: *q\n    x790: *q\n    x791: *q\n    x792: *q\n    x793: *q\n    x794: *q\n    x795: *q\n    x796: *q\n    x797: *q\n    x798: *q\n    x799: *q\n    x800: *q\n    x801: *q\n    x802: *q\n    x803: *q\n    x804: *q\n    x805: *q\n    x806: *q\n    x807: *q\n    x808: *q\n    x809: *q\n    x810: *q\n    x811: *q\n    x812: *q\n    x813: *q\n    x814: *q\n    x815: *q\n    x816: *q\n    x817: *q\n    x818: *q\n    x819: *q\n    x820: *q\n    x821: *q\n    x822: *q\n    x823: *q\n    x824: *q\n    x825: *q\n    x826: *q\n    x827: *q\n    x828: *q\n    x829: *q\n    x830: *q\n    x831: *q\n    x832: *q\n    x833: *q\n    x834: *q\n    x835: *q\n    x836: *q\n    x837: *q\n    x838: *q\n    x839: *q\n    x840: *q\n    x841: *q\n    x842: *q\n    x843: *q\n    x844: *q\n    x845: *q\n    x846: *q\n    x847: *q\n    x848: *q\n    x849: *q\n    x850: *q\n    x851: *q\n    x852: *q\n    x853: *q\n    x854: *q\n    x855: *q\n    x856: *q\n    x857: *q\n    x858: *q\n    x859: *q\n    x860: *q\n    x861: *q\n    x862: *q\n    x863: *q\n    x864: *q\n    x865: *q\n    x866: *q\n    x867: *q\n    x868: *q\n    x869: *q\n    x870: *q\n    x871: *q\n    x872: *q\n    x873: *q\n    x874: *q\n    x875: *q\n    x876: *q\n    x877: *q\n    x878: *q\n    x879: *q\n    x880: *q\n    x881: *q\n    x882: *q\n    x883: *q\n    x884: *q\n    x885: *q\n    x886: *q\n    x887: *q\n    x888: *q\n    x889: *q\n    x890: *q\n    x891: *q\n    x892: *q\n    x893: *q\n    x894: *q\n    x895: *q\n    x896: *q\n    x897: *q\n    x898: *q\n    x899: *q\n    x900: *q\n    x901: *q\n    x902: *q\n    x903: *q\n    x904: *q\n    x905: *q\n    x906: *q\n    x907: *q\n    x908: *q\n    x909: *q\n    x910: *q\n    x911: *q\n    x912: *q\n    x913: *q\n    x914: *q\n    x915: *q\n    x916: *q\n    x917: *q\n    x918: *q\n    x919: *q\n    x920: *q\n    x921: *q\n    x922: *q\n    x923: *q\n    x924: *q\n    x925: *q\n    x926: *q\n    x927: *q\n    x928: *q\n    x929: *q\n    x930: *q\n    x931: *q\n    x932: *q\n    x933: *q\n    x934: *q\n    x935: *q\n    x936: *q\n    x937: *q\n    x938: *q\n    x939: *q\n    x940: *q\n    x941: *q\n    x942: *q\n    x943: *q\n    x944: *q\n    x945: *q\n    x946: *q\n    x947: *q\n    x948: *q\n    x949: *q\n    x950: *q\n    x951: *q\n    x952: *q\n    x953: *q\n    x954: *q\n    x955: *q\n    x956: *q\n    x957: *q\n    x958: *q\n    x959: *q\n    x960: *q\n    x961: *q\n    x962: *q\n    x963: *q\n    x964: *q\n    x965: *q\n    x966: *q\n    x967: *q\n    x968: *q\n    x969: *q\n    x970: *q\n    x971: *q\n    x972: *q\n    x973: *q\n    x974: *q\n    x975: *q\n    x976: *q\n    x977: *q\n    x978: *q\n    x979: *q\n    x980: *q\n    x981: *q\n    x982: *q\n    x983: *q\n    x984: *q\n    x985: *q\n    x986: *q\n    x987: *q\n    x988: *q\n    x989: *q\n    x990: *q\n    x991: *q\n    x992: *q\n    x993: *q\n    x994: *q\n    x995: *q\n    x996: *q\n    x997: *q\n    x998: *q\n    x999: *q\n    x1000: *q\n',
      ),
    },
    expect: ['a/x.yaml', 'alias'],
  },
  {
    name: 'an env var name with "="',
    files: { 'a/x.yaml': app(okPorts + '  envs:\n    - name: A=B\n      value: x\n') },
    expect: ['spec.envs[0].name', 'printable ASCII characters other than "="', '"A=B"'],
  },
  {
    name: 'an env var name given twice (server-side apply refuses the Deployment)',
    files: {
      'a/x.yaml': app(
        okPorts + '  envs:\n    - name: MODE\n      value: a\n    - name: MODE\n      value: b\n',
      ),
    },
    expect: ['a/x.yaml:12:13 (document 1) spec.envs[1].name', 'server-side apply', 'a second "MODE"'],
  },
  {
    name: 'a Myapp env var name given twice',
    files: {
      'a/x.yaml': myapp(
        '  image: shop:1\n  containerPort: 80\n  env:\n    - name: MODE\n    - name: MODE\n      value: b\n',
      ),
    },
    expect: ['a/x.yaml:10:13 (document 1) spec.env[1].name', 'a second "MODE"'],
  },
  {
    name: 'an env var with two sources',
    files: {
      'a/x.yaml': app(
        okPorts +
          '  envs:\n    - name: A\n      valueFrom:\n        fieldRef: { fieldPath: metadata.name }\n        secretKeyRef: { name: s, key: k }\n',
      ),
    },
    expect: ['spec.envs[0].valueFrom', 'exactly one of fieldRef', 'fieldRef and secretKeyRef'],
  },
  {
    name: 'an env var from a field the downward API does not offer',
    files: {
      'a/x.yaml': app(
        okPorts + '  envs:\n    - name: A\n      valueFrom:\n        fieldRef: { fieldPath: status.phase }\n',
      ),
    },
    expect: ['spec.envs[0].valueFrom.fieldRef.fieldPath', 'metadata.name', '"status.phase"'],
  },
  {
    name: 'an env var from a config map key that is not a key',
    files: {
      'a/x.yaml': app(
        okPorts +
          '  envs:\n    - name: A\n      valueFrom:\n        configMapKeyRef: { name: cfg, key: "a b" }\n',
      ),
    },
    expect: ['spec.envs[0].valueFrom.configMapKeyRef.key', '"a b"'],
  },
  {
    name: 'a negative resource quantity',
    files: { 'a/x.yaml': app(okPorts + '  resources:\n    requests:\n      cpu: "-1"\n') },
    expect: ['spec.resources.requests.cpu', 'at least 0', '"-1"'],
  },
  {
    name: 'a request above its limit',
    files: {
      'a/x.yaml': app(okPorts + '  resources:\n    limits: { memory: 1Gi }\n    requests: { memory: 2Gi }\n'),
    },
    expect: ['spec.resources.requests.memory', 'at most the memory limit'],
  },
  {
    name: 'a resource name containers cannot ask for',
    files: { 'a/x.yaml': app(okPorts + '  resources:\n    limits: { pods: "1" }\n') },
    expect: ['spec.resources.limits.pods', 'a container resource', '"pods"'],
  },
  {
    name: 'an extended resource requested without a limit',
    files: { 'a/x.yaml': app(okPorts + '  resources:\n    requests: { example.com/gpu: "1" }\n') },
    expect: ['spec.resources.limits["example.com/gpu"]', 'cannot be overcommitted'],
  },
  {
    name: 'a resource claim with nothing to claim',
    files: { 'a/x.yaml': app(okPorts + '  resources:\n    claims: [{ name: gpu }]\n') },
    expect: ['spec.resources.claims[0]', 'no resource claims'],
  },
  {
    name: 'a nodePort outside the node-port range',
    files: { 'a/x.yaml': app('  image: nginx\n  ports:\n    - port: 80\n      nodePort: 80\n') },
    expect: ['spec.ports[0].nodePort', 'from 30000 to 32767', 'found 80'],
  },
  {
    name: 'one nodePort on two ports of a Service',
    files: {
      'a/x.yaml': app(
        '  image: nginx\n  ports:\n    - { name: a, port: 80, nodePort: 30080 }\n    - { name: b, port: 81, nodePort: 30080 }\n',
      ),
    },
    expect: ['spec.ports[1].nodePort', 'not used by another port of the Service'],
  },
  {
    name: 'an appProtocol that is not a qualified name',
    files: { 'a/x.yaml': app('  image: nginx\n  ports:\n    - port: 80\n      appProtocol: bad proto\n') },
    expect: ['spec.ports[0].appProtocol', 'qualified name', '"bad proto"'],
  },
  {
    name: 'an image with a leading space (its Pods are refused)',
    files: { 'a/x.yaml': app('  image: " nginx"\n  ports:\n    - port: 80\n') },
    expect: ['spec.image', 'without leading or trailing whitespace'],
  },
  {
    name: 'a Myapp host that is an IP address',
    files: { 'a/x.yaml': myapp('  image: shop:1\n  containerPort: 80\n  host: 10.0.0.1\n') },
    expect: ['spec.host', 'not an IP address'],
  },
  {
    name: 'an Ingress class that is not a DNS subdomain',
    files: {
      'a/chart.yaml': 'ingressClassName: Nginx\n',
      'a/x.yaml': myapp('  image: shop:1\n  containerPort: 80\n'),
    },
    expect: ['a/chart.yaml', 'ingressClassName', '"Nginx"'],
  },
  {
    name: 'an annotation key that is not a qualified name',
    files: { 'a/x.yaml': app(okPorts, 'name: web\n  annotations:\n    "bad key": x') },
    expect: ['metadata.annotations["bad key"]', 'annotation key'],
  },
  {
    name: 'a named targetPort on an unnamed port (no container port gets that name)',
    files: { 'a/x.yaml': app('  image: nginx\n  ports:\n    - port: 80\n      targetPort: http\n') },
    expect: ['spec.ports[0].targetPort', 'no container port has a name', '"http"'],
  },
  {
    name: 'a chart label key that is not a label key',
    files: { 'a/chart.yaml': 'labels:\n  "bad key!": x\n', 'a/x.yaml': app(okPorts) },
    expect: ['a/chart.yaml:2:', 'labels["bad key!"]', 'label key'],
  },
  {
    name: 'a chart label value that is not a label value',
    files: { 'a/chart.yaml': 'labels:\n  team: "two words"\n', 'a/x.yaml': app(okPorts) },
    expect: ['a/chart.yaml:2:9', 'labels.team', 'label value', '"two words"'],
  },
  {
    name: 'a zero targetPort (never containerPort: 0)',
    files: { 'a/x.yaml': app('  image: nginx\n  ports:\n    - port: 80\n      targetPort: 0\n') },
    expect: ['spec.ports[0].targetPort', '1 to 65535', 'found 0'],
  },
  {
    name: 'a Myapp containerPort of 0',
    files: { 'a/x.yaml': myapp('  image: shop:1\n  containerPort: 0\n') },
    expect: ['spec.containerPort', 'from 1 to 65535', 'found 0'],
  },
  {
    name: 'a named targetPort with no matching container port',
    files: {
      'a/x.yaml': app(
        '  image: nginx\n  ports:\n    - name: http\n      port: 80\n    - name: admin\n      port: 81\n      targetPort: metrics\n',
      ),
    },
    expect: ['spec.ports[1].targetPort', 'name of a container port (http)', '"metrics"'],
  },
  {
    name: 'a NodePort service without ports',
    files: { 'a/x.yaml': app('  image: nginx\n') },
    expect: ['a/x.yaml', 'spec.ports', 'NodePort Service, which needs ports'],
  },
  {
    name: 'an empty port list',
    files: { 'a/x.yaml': app('  image: nginx\n  ports: []\n') },
    expect: ['spec.ports', 'an empty list'],
  },
  {
    name: 'two unnamed ports',
    files: { 'a/x.yaml': app('  image: nginx\n  ports:\n    - port: 80\n    - port: 81\n') },
    expect: ['spec.ports[0].name', 'several ports'],
  },
  {
    name: 'a lowercase protocol',
    files: { 'a/x.yaml': app('  image: nginx\n  ports:\n    - port: 80\n      protocol: tcp\n') },
    expect: ['spec.ports[0].protocol', '"TCP", "UDP", "SCTP"', '"tcp"'],
  },
  {
    name: 'two specs making the same object',
    files: { 'a/x.yaml': app(okPorts), 'a/y.yaml': app(okPorts) },
    expect: ['a/y.yaml', 'metadata.name', 'also defined in', 'a/x.yaml'],
  },
  {
    name: 'an AppService and a Myapp making the same Deployment',
    files: {
      'a/x.yaml': app(okPorts),
      'a/y.yaml': myapp('  image: shop:1\n  containerPort: 80\n').replace('name: shop', 'name: web'),
    },
    expect: ['a/y.yaml', 'Deployment/web', 'also made by', 'a/x.yaml'],
  },
  {
    name: 'two Services on one nodePort',
    files: {
      'a/x.yaml': app('  image: nginx\n  ports:\n    - port: 80\n      nodePort: 30080\n'),
      'a/y.yaml': app('  image: nginx\n  ports:\n    - port: 80\n      nodePort: 30080\n', 'name: api'),
    },
    expect: ['nodePort not used by another Service', '30080'],
  },
  {
    name: 'a name that is not a DNS label',
    files: { 'a/x.yaml': app(okPorts, 'name: Web_App') },
    expect: ['a/x.yaml:4:9 (document 1) metadata.name', 'DNS label', '"Web_App"'],
  },
  {
    name: 'a name starting with a digit (Service names are RFC 1035)',
    files: { 'a/x.yaml': app(okPorts, 'name: 1web') },
    expect: ['metadata.name', 'RFC 1035', '"1web"'],
  },
  {
    name: 'an invalid label key on a NodePool',
    files: { 'a/x.yaml': pool('  labels:\n    "bad key!": "x"\n') },
    expect: ['a/x.yaml', 'spec.labels["bad key!"]', 'label key'],
  },
  {
    name: 'an invalid label value',
    files: { 'a/x.yaml': pool('  labels:\n    pool: "has spaces"\n') },
    expect: ['spec.labels.pool', 'label value', '"has spaces"'],
  },
  {
    name: 'an invalid taint effect',
    files: { 'a/x.yaml': pool('  taints:\n    - key: gpu\n      effect: NoScheduleX\n') },
    expect: [
      'a/x.yaml:8:15 (document 1) spec.taints[0].effect',
      '"NoSchedule", "PreferNoSchedule", "NoExecute"',
      '"NoScheduleX"',
    ],
  },
  {
    name: 'a taint on a reserved Kubernetes key',
    files: {
      'a/x.yaml': pool('  taints:\n    - key: node.kubernetes.io/unschedulable\n      effect: NoSchedule\n'),
    },
    expect: ['spec.taints[0].key', 'reserved', '"node.kubernetes.io/unschedulable"'],
  },
  {
    name: 'a label that would make Nodes members of another pool',
    files: { 'a/x.yaml': pool('  labels:\n    node-role.kubernetes.io/other: ""\n') },
    expect: ['spec.labels["node-role.kubernetes.io/other"]', 'reserved'],
  },
  {
    name: 'a NodePool label in a Kubernetes namespace (topology.kubernetes.io/zone)',
    files: { 'a/x.yaml': pool('  labels:\n    topology.kubernetes.io/zone: z1\n') },
    expect: [
      'spec.labels["topology.kubernetes.io/zone"]',
      'reserved for Kubernetes',
      'Use a key under a domain of your own',
    ],
  },
  {
    name: 'a NodePool taint in a k8s.io subdomain',
    files: { 'a/x.yaml': pool('  taints:\n    - key: example.k8s.io/x\n      effect: NoSchedule\n') },
    expect: ['spec.taints[0].key', 'reserved for Kubernetes', '"example.k8s.io/x"'],
  },
  {
    name: 'a NodePool label whose name part is longer than 63 characters',
    files: { 'a/x.yaml': pool(`  labels:\n    example.com/${'n'.repeat(64)}: v\n`) },
    expect: [`spec.labels["example.com/${'n'.repeat(64)}"]`, 'at most 63 characters'],
  },
  {
    name: 'a NodePool taint whose key prefix is longer than 253 characters',
    files: { 'a/x.yaml': pool(`  taints:\n    - key: ${'p'.repeat(254)}/k\n      effect: NoSchedule\n`) },
    expect: ['spec.taints[0].key', 'DNS-subdomain prefix'],
  },
  {
    name: 'a taint without a key',
    files: { 'a/x.yaml': pool('  taints:\n    - effect: NoSchedule\n') },
    expect: ['spec.taints[0].key', 'required'],
  },
  {
    name: 'a namespace on a cluster-scoped NodePool',
    files: { 'a/x.yaml': pool('  labels: {a: b}\n', 'name: gpu\n  namespace: team') },
    expect: ['metadata.namespace', 'cluster-scoped'],
  },
  {
    name: 'a non-object spec',
    files: { 'a/x.yaml': app('  - image\n') },
    expect: ['a/x.yaml', 'spec', 'type object', 'a list of 1'],
  },
  {
    name: 'a document that is a plain string',
    files: { 'a/x.yaml': 'hello\n' },
    expect: ['a/x.yaml', 'a mapping with apiVersion', '"hello"'],
  },
  {
    name: 'an empty file',
    files: { 'a/x.yaml': '' },
    expect: ['a/x.yaml', 'at least one spec document', 'an empty file'],
  },
  {
    name: 'a file of comments only',
    files: { 'a/x.yaml': '# nothing yet\n' },
    expect: ['a/x.yaml', 'an empty file'],
  },
  {
    name: 'a misspelt field',
    files: { 'a/x.yaml': app(okPorts + '  replica: 2\n') },
    expect: ['spec.replica', 'unknown field', 'Did you mean "replicas"?'],
  },
  {
    name: 'a bad resource quantity',
    files: { 'a/x.yaml': app(okPorts + '  resources:\n    limits:\n      memory: lots\n') },
    expect: ['spec.resources.limits.memory', 'Kubernetes quantity', '"lots"'],
  },
  {
    name: 'an error in the second document of a file',
    files: {
      'a/x.yaml': app(okPorts) + '---\n' + app('  image: 5\n  ports:\n    - port: 80\n', 'name: api'),
    },
    expect: ['(document 2) spec.image', 'type string'],
  },
  {
    name: 'a Myapp host that is not a DNS name',
    files: { 'a/x.yaml': myapp('  image: shop:1\n  containerPort: 80\n  host: Shop_Example.com\n') },
    expect: ['spec.host', 'DNS name', '"Shop_Example.com"'],
  },
  {
    name: 'an invalid chart setting',
    files: { 'a/chart.yaml': 'hardening: maximal\n', 'a/x.yaml': app(okPorts) },
    expect: ['a/chart.yaml:1:12', 'hardening', '"none", "restricted"'],
  },
  {
    name: 'a platform specforge does not render for (Podroute)',
    files: { 'a/chart.yaml': 'platform: aws\n', 'a/x.yaml': podroute('  image: hello:1\n') },
    expect: ['a/chart.yaml:1:11', 'platform', 'one of "kubernetes", "openshift"', 'found "aws"'],
  },
  {
    name: 'a platform specforge does not render for (Myapp)',
    files: {
      'a/chart.yaml': 'namespace: shop\nplatform: aws\n',
      'a/x.yaml': myapp('  image: shop:1\n  containerPort: 80\n'),
    },
    expect: ['a/chart.yaml:2:11', 'platform', 'one of "kubernetes", "openshift"', 'found "aws"'],
  },
  {
    name: 'a wildcard Myapp host on OpenShift (a Route takes none)',
    files: {
      'a/chart.yaml': 'platform: openshift\n',
      'a/x.yaml': myapp('  image: shop:1\n  containerPort: 80\n  host: "*.example.com"\n'),
    },
    expect: ['a/x.yaml', '(Route/shop) spec.host', 'no wildcard host', '"*.example.com"'],
  },
  {
    name: 'a Pod Security level that does not exist',
    files: {
      'a/chart.yaml': 'namespace: a\ncreateNamespace: true\npodSecurity: strict\n',
      'a/x.yaml': app(okPorts),
    },
    expect: ['a/chart.yaml:3:14', 'podSecurity', '"privileged", "baseline", "restricted"', 'found "strict"'],
  },
  {
    name: 'a Pod Security level in a chart that renders no Namespace',
    files: { 'a/chart.yaml': 'namespace: a\npodSecurity: restricted\n', 'a/x.yaml': app(okPorts) },
    expect: ['a/chart.yaml:2:14', 'podSecurity', 'createNamespace: true', 'found createNamespace unset'],
  },
  {
    name: 'a chart directory that is not a DNS label',
    files: { 'Team_A/x.yaml': app(okPorts) },
    expect: ['Team_A', 'chart directory named as a DNS label'],
  },
  {
    name: 'size and replicas disagreeing',
    files: { 'a/x.yaml': app(okPorts + '  replicas: 2\n  size: 3\n') },
    expect: ['spec.size', 'same value as spec.replicas'],
  },
  {
    name: 'an adoption pin that does not apply to the kind (a Route host on an AppService)',
    files: { 'a/x.yaml': app(okPorts) + 'adopt:\n  routeHost: web.example.com\n' },
    expect: [
      'a/x.yaml:10:14 (document 1) adopt.routeHost',
      'known fields (selector, podLabels, container, replicas, names)',
    ],
  },
  {
    name: 'pinned pod labels without the pinned selector',
    files: {
      'a/x.yaml':
        myapp('  image: shop:1\n  containerPort: 80\n') +
        'adopt:\n  selector: {app: a, release: canary}\n  podLabels: {app: a}\n',
    },
    expect: ['adopt.podLabels.release', '"canary"', 'pods must carry its selector', 'found nothing'],
  },
  {
    name: 'an empty pinned selector',
    files: { 'a/x.yaml': app(okPorts) + 'adopt:\n  selector: {}\n' },
    expect: ['adopt.selector', 'a non-empty mapping', 'found an empty mapping'],
  },
  {
    name: 'a pinned label key the API server refuses',
    files: { 'a/x.yaml': app(okPorts) + 'adopt:\n  podLabels: {app: web, "a b": x}\n' },
    expect: ['adopt.podLabels["a b"]', 'a label key', 'found key "a b"'],
  },
  {
    name: 'a pinned port name for a port the spec does not make',
    files: { 'a/x.yaml': podroute('  image: hello:1\n') + 'adopt:\n  container: {portNames: {"80": web}}\n' },
    expect: ['adopt.container.portNames["80"]', 'a container port the spec makes (8080)', 'found port 80'],
  },
  {
    name: 'a pinned pull policy Kubernetes does not know',
    files: { 'a/x.yaml': app(okPorts) + 'adopt:\n  container: {imagePullPolicy: always}\n' },
    expect: ['adopt.container.imagePullPolicy', '"Always", "IfNotPresent", "Never"', 'found "always"'],
  },
  {
    name: 'a pinned container name that is not a DNS label',
    files: { 'a/x.yaml': podroute('  image: hello:1\n') + 'adopt:\n  container: {name: PodRoute-pod}\n' },
    expect: ['adopt.container.name', 'a DNS label (RFC 1123)', 'found "PodRoute-pod"'],
  },
  {
    name: 'a pinned Service name that is not a DNS-1035 label',
    files: { 'a/x.yaml': app(okPorts) + 'adopt:\n  names: {service: 1web}\n' },
    expect: ['adopt.names.service', 'RFC 1035', 'found "1web"'],
  },
  {
    name: 'a pinned Route host with a wildcard',
    files: { 'a/x.yaml': podroute('  image: hello:1\n') + 'adopt:\n  routeHost: "*.apps.example.com"\n' },
    expect: ['adopt.routeHost', 'a host without "*"', '"*.apps.example.com"'],
  },
  {
    name: 'a Route pin on a Podroute the chart exposes with an Ingress',
    files: {
      'a/chart.yaml': 'platform: kubernetes\n',
      'a/x.yaml': podroute('  image: hello:1\n') + 'adopt:\n  names: {route: podroute-route}\n',
    },
    expect: [
      'a/x.yaml:8:18 (document 1) adopt.names.route',
      'platform kubernetes renders an Ingress, not a Route',
    ],
  },
  {
    name: 'a NodePool adopting a reserved Node key',
    files: {
      'a/x.yaml':
        pool('  labels: {a: b}\n') + 'adopt:\n  nodeKeys: {labels: [node-role.kubernetes.io/gpu]}\n',
    },
    expect: ['adopt.nodeKeys.labels[0]', 'reserved for Kubernetes'],
  },
  {
    name: 'a NodePool adopting a kubelet label (kubernetes.io/hostname)',
    files: {
      'a/x.yaml': pool('  labels: {a: b}\n') + 'adopt:\n  nodeKeys: {labels: [kubernetes.io/hostname]}\n',
    },
    expect: [
      'adopt.nodeKeys.labels[0]',
      'reserved for Kubernetes',
      '"kubernetes.io/hostname"',
      'Use a key under a domain of your own',
    ],
  },
  {
    name: "a NodePool adopting the cloud provider's taint",
    files: {
      'a/x.yaml':
        pool('  labels: {a: b}\n') +
        'adopt:\n  nodeKeys: {taints: ["node.cloudprovider.kubernetes.io/uninitialized:NoSchedule"]}\n',
    },
    expect: ['adopt.nodeKeys.taints[0]', 'reserved for Kubernetes'],
  },
  {
    name: 'a NodePool adopting a taint without an effect',
    files: { 'a/x.yaml': pool('  labels: {a: b}\n') + 'adopt:\n  nodeKeys: {taints: [gpu]}\n' },
    expect: ['adopt.nodeKeys.taints[0]', 'key:effect', 'found "gpu"'],
  },
  {
    name: 'a pinned RuntimeClass name that is not a DNS subdomain',
    files: { 'a/x.yaml': pool('  labels: {a: b}\n') + 'adopt:\n  runtimeClassName: Node_Pool\n' },
    expect: ['adopt.runtimeClassName', 'DNS subdomain', 'found "Node_Pool"'],
  },
  {
    name: 'two Podroutes pinning the same legacy names in one namespace',
    files: {
      'a/x.yaml':
        podroute('  image: hello:1\n') +
        'adopt:\n  names: {deployment: pod-route, service: podroute-service, route: podroute-route}\n---\n' +
        podroute('  image: hello:1\n').replace('name: hello', 'name: second') +
        'adopt:\n  names: {deployment: pod-route, service: podroute-service, route: podroute-route}\n',
    },
    expect: [
      '(Deployment/pod-route) metadata.name',
      'a Deployment name not used by another spec',
      'a/x.yaml (document 1)',
    ],
  },
];
