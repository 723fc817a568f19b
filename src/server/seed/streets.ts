import { STREET_NAMES, STREET_SUFFIXES } from './content';
import type { Random } from './random';

/**
 * Street addresses that read as the city's own: "Bahnhofstraße 12" in Munich, "12 Rue de la Paix" in
 * Lyon, "Via Garibaldi 12" in Turin, "Enghelab St, No. 12" in Kermanshah, "2-13-4 Chuo" in Nagoya; the
 * English-speaking world (and any country without its own list here) keeps "12 Maple St". Each
 * address draws exactly one house number and two picks from the seed's random stream whatever the
 * country, so every row the seed makes after it is the same as before the lists came in.
 */
interface StreetStyle {
  names: readonly string[];
  /** Street kinds; a style whose streets have no kind word still picks one (the draw is kept). */
  kinds: readonly string[];
  /** The address from a number in 1..2400, a name and a kind. */
  format(number: number, name: string, kind: string): string;
}

/** European and Asian house numbers run lower than American ones. */
const small = (number: number) => 1 + (number % 180);

const ENGLISH: StreetStyle = {
  names: STREET_NAMES,
  kinds: STREET_SUFFIXES,
  format: (number, name, kind) => `${number} ${name} ${kind}`,
};

const GERMAN: StreetStyle = {
  names: [
    'Haupt',
    'Bahnhof',
    'Schul',
    'Garten',
    'Berg',
    'Kirch',
    'Linden',
    'Goethe',
    'Schiller',
    'Mozart',
    'Wald',
    'Ring',
    'Feld',
    'Mühlen',
    'Rosen',
    'Birken',
    'Park',
    'Markt',
    'Blumen',
    'Eichen',
    'Kant',
    'Beethoven',
    'Friedrich',
    'Luisen',
    'Sonnen',
  ],
  kinds: ['straße', 'straße', 'straße', 'weg', 'gasse', 'allee', 'platz'],
  format: (number, name, kind) => `${name}${kind} ${small(number)}`,
};

const FRENCH: StreetStyle = {
  names: [
    'de la République',
    'de la Paix',
    'Victor Hugo',
    'Jean Jaurès',
    'du Général de Gaulle',
    'Pasteur',
    'des Écoles',
    'du Commerce',
    'de la Gare',
    'du Moulin',
    'des Lilas',
    'Voltaire',
    'de Verdun',
    'Gambetta',
    'de la Liberté',
    'Nationale',
    'du Marché',
    'des Fleurs',
    'Émile Zola',
    'Saint-Michel',
  ],
  kinds: ['Rue', 'Rue', 'Rue', 'Avenue', 'Boulevard', 'Place', 'Allée'],
  format: (number, name, kind) => `${small(number)} ${kind} ${name}`,
};

const SPANISH: StreetStyle = {
  names: [
    'Mayor',
    'Real',
    'del Sol',
    'San Juan',
    'de la Paz',
    'Bolívar',
    'Hidalgo',
    'Juárez',
    'San Martín',
    'de la Constitución',
    'de los Libertadores',
    'Independencia',
    'Reforma',
    'Colón',
    'Sarmiento',
    'de Mayo',
    'Santa Rosa',
    'Morelos',
    'del Carmen',
    'Las Flores',
  ],
  kinds: ['Calle', 'Calle', 'Calle', 'Avenida', 'Paseo', 'Plaza', 'Camino'],
  format: (number, name, kind) => `${kind} ${name} ${small(number)}`,
};

const ITALIAN: StreetStyle = {
  names: [
    'Roma',
    'Garibaldi',
    'Dante',
    'Mazzini',
    'Verdi',
    'Cavour',
    'Vittorio Emanuele',
    'Marconi',
    'Matteotti',
    'XX Settembre',
    'della Repubblica',
    'Manzoni',
    'San Francesco',
    'dei Mille',
    'Nazionale',
    'Umberto I',
  ],
  kinds: ['Via', 'Via', 'Via', 'Corso', 'Piazza', 'Viale', 'Vicolo'],
  format: (number, name, kind) => `${kind} ${name} ${small(number)}`,
};

const PORTUGUESE: StreetStyle = {
  names: [
    'das Flores',
    'da Liberdade',
    'Augusta',
    'São João',
    'Sete de Setembro',
    'Quinze de Novembro',
    'Tiradentes',
    'da Paz',
    'Santo Antônio',
    'Dom Pedro II',
    'do Comércio',
    'da Independência',
    'Brasil',
    'Rio Branco',
    'das Palmeiras',
    'José Bonifácio',
  ],
  kinds: ['Rua', 'Rua', 'Rua', 'Avenida', 'Travessa', 'Praça', 'Alameda'],
  format: (number, name, kind) => `${kind} ${name}, ${small(number)}`,
};

const DUTCH: StreetStyle = {
  names: [
    'Kerk',
    'Molen',
    'Dorps',
    'School',
    'Hoofd',
    'Juliana',
    'Wilhelmina',
    'Beatrix',
    'Stations',
    'Markt',
    'Linden',
    'Eiken',
    'Tuin',
    'Nieuwe',
    'Oranje',
    'Prinsen',
  ],
  kinds: ['straat', 'straat', 'straat', 'weg', 'laan', 'plein', 'gracht'],
  format: (number, name, kind) => `${name}${kind} ${small(number)}`,
};

const RUSSIAN: StreetStyle = {
  names: [
    'Lenina',
    'Gagarina',
    'Pushkina',
    'Sovetskaya',
    'Mira',
    'Tverskaya',
    'Sadovaya',
    'Lesnaya',
    'Molodezhnaya',
    'Shkolnaya',
    'Tsentralnaya',
    'Kirova',
    'Lermontova',
    'Chekhova',
    'Pobedy',
    'Naberezhnaya',
  ],
  kinds: ['ulitsa', 'ulitsa', 'ulitsa', 'prospekt', 'pereulok', 'bulvar'],
  format: (number, name, kind) => `${kind} ${name}, ${small(number)}`,
};

const UKRAINIAN: StreetStyle = {
  names: [
    'Shevchenka',
    'Franka',
    'Lesi Ukrainky',
    'Khmelnytskoho',
    'Sadova',
    'Hrushevskoho',
    'Soborna',
    'Nezalezhnosti',
    'Myru',
    'Tsentralna',
    'Shkilna',
    'Kotsiubynskoho',
  ],
  kinds: ['vulytsia', 'vulytsia', 'vulytsia', 'prospekt', 'provulok', 'bulvar'],
  format: (number, name, kind) => `${kind} ${name}, ${small(number)}`,
};

const POLISH: StreetStyle = {
  names: [
    'Marszałkowska',
    'Mickiewicza',
    'Kościuszki',
    'Słowackiego',
    'Długa',
    'Polna',
    'Lipowa',
    'Ogrodowa',
    'Kościelna',
    'Szkolna',
    'Kolejowa',
    'Piłsudskiego',
    'Sienkiewicza',
    'Leśna',
    'Słoneczna',
  ],
  kinds: ['ul.', 'ul.', 'ul.', 'al.', 'pl.'],
  format: (number, name, kind) => `${kind} ${name} ${small(number)}`,
};

const TURKISH: StreetStyle = {
  names: [
    'Atatürk',
    'Cumhuriyet',
    'İstiklal',
    'Gazi',
    'İnönü',
    'Fevzi Çakmak',
    'Hürriyet',
    'Mimar Sinan',
    'Barış',
    'Menekşe',
    'Lale',
    'Karanfil',
    'Fatih',
    'Mevlana',
  ],
  kinds: ['Caddesi', 'Caddesi', 'Sokak', 'Sokak', 'Bulvarı'],
  format: (number, name, kind) => `${name} ${kind} No: ${small(number)}`,
};

const PERSIAN: StreetStyle = {
  names: [
    'Enghelab',
    'Azadi',
    'Ferdowsi',
    'Valiasr',
    'Shariati',
    'Hafez',
    'Saadi',
    'Taleghani',
    'Modarres',
    'Jomhouri',
    'Beheshti',
    'Motahari',
    'Bahar',
    'Golestan',
    'Keshavarz',
    'Mellat',
  ],
  kinds: ['St', 'St', 'St', 'Blvd', 'Alley', 'Sq'],
  format: (number, name, kind) => `${name} ${kind}, No. ${small(number)}`,
};

const ARABIC: StreetStyle = {
  names: [
    'Al Tahrir',
    'Al Nasr',
    'Al Gomhoria',
    'King Fahd',
    'Sheikh Zayed',
    'Al Malik',
    'Al Salam',
    'Al Nil',
    'Al Jamaa',
    'Al Andalus',
    'Al Madina',
    'Al Rashid',
    'Al Quds',
    'Al Zahra',
    'Port Said',
    'Omar Ibn Al Khattab',
  ],
  kinds: ['Street', 'Street', 'Street', 'Road', 'Avenue'],
  format: (number, name, kind) => `${small(number)} ${name} ${kind}`,
};

const SOUTH_ASIAN: StreetStyle = {
  names: [
    'Mahatma Gandhi',
    'Nehru',
    'Station',
    'Tilak',
    'Subhash',
    'Sardar Patel',
    'Ambedkar',
    'Temple',
    'Church',
    'Rajaji',
    'Tagore',
    'Jinnah',
    'Iqbal',
    'Mall',
    'Shivaji',
    'Netaji',
  ],
  kinds: ['Road', 'Road', 'Road', 'Marg', 'Street', 'Nagar'],
  format: (number, name, kind) => `${small(number)} ${name} ${kind}`,
};

const CHINESE: StreetStyle = {
  names: [
    'Renmin',
    'Jiefang',
    'Zhongshan',
    'Heping',
    'Jianshe',
    'Xinhua',
    'Beijing',
    'Nanjing',
    'Changjiang',
    'Huaihai',
    'Dongfeng',
    'Wenhua',
    'Yingbin',
    'Chaoyang',
    'Guangming',
    'Minzhu',
  ],
  kinds: ['Road', 'Road', 'Road', 'Street', 'Avenue', 'East Road', 'West Road'],
  format: (number, name, kind) => `No. ${small(number)} ${name} ${kind}`,
};

const JAPANESE: StreetStyle = {
  names: [
    'Chuo',
    'Honcho',
    'Sakae',
    'Nishiki',
    'Minami',
    'Kita',
    'Higashi',
    'Motomachi',
    'Ekimae',
    'Shinmachi',
    'Kotobuki',
    'Asahi',
    'Midori',
    'Hikari',
    'Sakuragaoka',
    'Omotesando',
  ],
  // the district's number (chōme) stands in for the kind: Japanese addresses name blocks, not streets
  kinds: ['1', '2', '3', '4', '5'],
  format: (number, name, chome) => `${chome}-${1 + (number % 30)}-${1 + (number % 17)} ${name}`,
};

const KOREAN: StreetStyle = {
  names: [
    'Sejong-daero',
    'Teheran-ro',
    'Jong-ro',
    'Eulji-ro',
    'Toegye-ro',
    'Hangang-daero',
    'Dosan-daero',
    'Gangnam-daero',
    'Olympic-ro',
    'Yanghwa-ro',
    'Jungang-ro',
    'Haeun-daero',
  ],
  // road names carry their kind (-ro, -daero): the pick is drawn and not shown
  kinds: [''],
  format: (number, name) => `${small(number)} ${name}`,
};

const INDONESIAN: StreetStyle = {
  names: [
    'Sudirman',
    'Thamrin',
    'Gatot Subroto',
    'Diponegoro',
    'Gajah Mada',
    'Merdeka',
    'Ahmad Yani',
    'Pahlawan',
    'Imam Bonjol',
    'Pemuda',
    'Asia Afrika',
    'Veteran',
    'Kartini',
    'Hayam Wuruk',
  ],
  kinds: ['Jl.', 'Jl.', 'Jl.', 'Jalan'],
  format: (number, name, kind) => `${kind} ${name} No. ${small(number)}`,
};

const VIETNAMESE: StreetStyle = {
  names: [
    'Lê Lợi',
    'Nguyễn Huệ',
    'Trần Hưng Đạo',
    'Hai Bà Trưng',
    'Lê Duẩn',
    'Lý Thường Kiệt',
    'Điện Biên Phủ',
    'Nguyễn Trãi',
    'Phan Chu Trinh',
    'Quang Trung',
    'Hùng Vương',
    'Lê Lai',
  ],
  // Vietnamese addresses name the street alone: the pick is drawn and not shown
  kinds: [''],
  format: (number, name) => `${small(number)} ${name}`,
};

const THAI: StreetStyle = {
  names: [
    'Sukhumvit',
    'Silom',
    'Rama IV',
    'Phahonyothin',
    'Ratchadamri',
    'Charoen Krung',
    'Sathorn',
    'Petchaburi',
    'Ratchadaphisek',
    'Lat Phrao',
    'Nimmanhaemin',
    'Huay Kaew',
  ],
  kinds: ['Road', 'Road', 'Soi'],
  format: (number, name, kind) => `${small(number)} ${name} ${kind}`,
};

const ROMANIAN: StreetStyle = {
  names: [
    'Victoriei',
    'Mihai Eminescu',
    'Unirii',
    'Republicii',
    'Independenței',
    'Ștefan cel Mare',
    'Libertății',
    'Florilor',
    'Mihai Viteazu',
    'Dacia',
  ],
  kinds: ['Strada', 'Strada', 'Bulevardul', 'Calea', 'Piața'],
  format: (number, name, kind) => `${kind} ${name} ${small(number)}`,
};

const HUNGARIAN: StreetStyle = {
  names: [
    'Andrássy',
    'Rákóczi',
    'Kossuth Lajos',
    'Petőfi Sándor',
    'Béke',
    'Fő',
    'Széchenyi',
    'Dózsa György',
    'Arany János',
    'Bajcsy-Zsilinszky',
  ],
  kinds: ['utca', 'utca', 'út', 'tér', 'körút'],
  format: (number, name, kind) => `${name} ${kind} ${small(number)}`,
};

/** Swedish, Norwegian, Danish and Finnish streets: one word, the kind joined on. */
const nordic = (names: readonly string[], kinds: readonly string[]): StreetStyle => ({
  names,
  kinds,
  format: (number, name, kind) => `${name}${kind} ${small(number)}`,
});
const SWEDISH = nordic(
  ['Kungs', 'Drottning', 'Stor', 'Kyrko', 'Skol', 'Strand', 'Park', 'Hamn', 'Ring', 'Tull'],
  ['gatan', 'gatan', 'vägen', 'torget'],
);
const NORWEGIAN = nordic(
  ['Kirke', 'Stor', 'Skole', 'Strand', 'Kongens', 'Dronning', 'Park', 'Havne', 'Torg', 'Bygdøy'],
  ['gata', 'gata', 'veien', 'gate'],
);
const DANISH = nordic(
  ['Nørre', 'Vester', 'Øster', 'Kirke', 'Skole', 'Strand', 'Kongens', 'Park', 'Havne', 'Torve'],
  ['gade', 'gade', 'vej', 'allé'],
);
const FINNISH = nordic(
  ['Mannerheimin', 'Asema', 'Koulu', 'Kirkko', 'Ranta', 'Puisto', 'Satama', 'Kauppa', 'Tori', 'Koivu'],
  ['katu', 'katu', 'tie', 'kuja'],
);

/** Serbian, Bulgarian and Czech streets: the name alone, after "ul." where the country writes it. */
const SLAVIC_SOUTH: StreetStyle = {
  names: [
    'Vitosha',
    'Rakovski',
    'Vasil Levski',
    'Hristo Botev',
    'Knez Mihailova',
    'Nemanjina',
    'Kralja Milana',
    'Shipka',
    'Graf Ignatiev',
    'Cara Dušana',
  ],
  kinds: ['ul.', 'ul.', 'bul.'],
  format: (number, name, kind) => `${kind} ${name} ${small(number)}`,
};
const CZECH: StreetStyle = {
  names: [
    'Národní',
    'Vodičkova',
    'Hlavní',
    'Nádražní',
    'Školní',
    'Husova',
    'Masarykova',
    'Palackého',
    'Komenského',
    'Zahradní',
  ],
  kinds: ['', 'třída', 'náměstí'],
  format: (number, name, kind) => `${kind === '' ? name : `${name} ${kind}`} ${small(number)}`,
};

const GREEK: StreetStyle = {
  names: [
    'Ermou',
    'Stadiou',
    'Panepistimiou',
    'Athinas',
    'Patision',
    'Akadimias',
    'Egnatia',
    'Tsimiski',
    'Mitropoleos',
    'Aristotelous',
  ],
  kinds: ['', 'Odos'],
  format: (number, name) => `${name} ${small(number)}`,
};

const HEBREW: StreetStyle = {
  names: [
    'Herzl',
    'Ben Yehuda',
    'Rothschild',
    'Dizengoff',
    'Jaffa',
    "HaNevi'im",
    'Allenby',
    'Weizmann',
    'King George',
    'HaPalmach',
  ],
  kinds: ['St', 'St', 'Blvd'],
  format: (number, name, kind) => `${small(number)} ${name} ${kind}`,
};

const STYLES: ReadonlyArray<readonly [StreetStyle, readonly string[]]> = [
  [GERMAN, ['DE', 'AT', 'CH', 'LI']],
  [
    FRENCH,
    [
      'FR',
      'BE',
      'LU',
      'MC',
      'SN',
      'CI',
      'CM',
      'ML',
      'BF',
      'NE',
      'TD',
      'GN',
      'BJ',
      'TG',
      'MG',
      'HT',
      'CD',
      'CG',
      'GA',
    ],
  ],
  [
    SPANISH,
    [
      'ES',
      'MX',
      'AR',
      'CO',
      'CL',
      'PE',
      'VE',
      'EC',
      'GT',
      'CU',
      'BO',
      'DO',
      'HN',
      'PY',
      'SV',
      'NI',
      'CR',
      'PA',
      'UY',
      'PR',
    ],
  ],
  [ITALIAN, ['IT', 'SM']],
  [PORTUGUESE, ['PT', 'BR', 'AO', 'MZ']],
  [DUTCH, ['NL', 'SR']],
  [RUSSIAN, ['RU', 'BY', 'KZ', 'KG']],
  [UKRAINIAN, ['UA']],
  [POLISH, ['PL']],
  [TURKISH, ['TR']],
  [PERSIAN, ['IR', 'AF']],
  [
    ARABIC,
    ['EG', 'SA', 'AE', 'IQ', 'MA', 'DZ', 'JO', 'SY', 'LB', 'TN', 'LY', 'SD', 'YE', 'KW', 'QA', 'OM', 'BH'],
  ],
  [SOUTH_ASIAN, ['IN', 'PK', 'BD', 'NP', 'LK']],
  [CHINESE, ['CN', 'TW']],
  [JAPANESE, ['JP']],
  [KOREAN, ['KR', 'KP']],
  [ROMANIAN, ['RO', 'MD']],
  [HUNGARIAN, ['HU']],
  [SWEDISH, ['SE']],
  [NORWEGIAN, ['NO']],
  [DANISH, ['DK']],
  [FINNISH, ['FI']],
  [SLAVIC_SOUTH, ['RS', 'BG', 'ME']],
  [CZECH, ['CZ', 'SK']],
  [GREEK, ['GR', 'CY']],
  [HEBREW, ['IL']],
  [INDONESIAN, ['ID', 'MY']],
  [VIETNAMESE, ['VN']],
  [THAI, ['TH']],
];

const BY_COUNTRY: ReadonlyMap<string, StreetStyle> = new Map(
  STYLES.flatMap(([style, countries]) => countries.map((country) => [country, style] as const)),
);

/** The street part of an address in the country (ISO 3166-1 alpha-2) given, without the city. */
export function localStreet(rng: Random, iso2: string): string {
  const style = BY_COUNTRY.get(iso2) ?? ENGLISH;
  const number = rng.int(1, 2400);
  const name = rng.pick(style.names);
  const kind = rng.pick(style.kinds);
  return style.format(number, name, kind);
}
