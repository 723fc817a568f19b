/**
 * Demo events that read like real listings: a host's events fit what the host is (a café holds
 * open mics and book swaps, a fire station an open day, a gym a bootcamp), and titles are built
 * from many named programmes, so the same words do not repeat dozens of times across a city.
 */
import type { Category } from '../../shared/domain/categories';
import type { PointSupertype } from '../../shared/domain/supertypes';
import { businessGroup, type BusinessGroup } from './content';
import type { Random } from './random';

/** Event types (event categories' keys) that fit a host, by business group. */
const GROUP_EVENT_TYPES: Record<BusinessGroup, readonly string[]> = {
  cafe: ['music', 'literature', 'crafts', 'games', 'art', 'education'],
  drink: ['music', 'band_performance', 'comedy', 'games', 'party', 'drinks', 'dance', 'sports'],
  food: ['food', 'wine_tasting', 'drinks', 'music', 'fundraising_dinner_party'],
  shop: ['shopping', 'open_house', 'crafts'],
  health: ['health', 'wellness'],
  beauty: ['wellness', 'open_house'],
  office: ['networking', 'business', 'education'],
  lodging: ['drinks', 'food', 'music', 'networking'],
  leisure: ['art', 'exhibition', 'film', 'concert', 'childrens', 'education'],
  auto: ['open_house'],
  education: ['education', 'childrens', 'fundraising_auction', 'open_house', 'literature'],
  trade: ['crafts', 'open_house', 'home'],
  civic: ['open_house', 'causes', 'health', 'childrens'],
};

/** Kinds whose events are their own (a gym's, a cinema's), before their group's. */
const KIND_EVENT_TYPES: Readonly<Record<string, readonly string[]>> = {
  gym: ['fitness', 'wellness', 'sports'],
  fitness_centre: ['fitness', 'wellness', 'sports'],
  sports_centre: ['fitness', 'sports', 'local_sport_competition'],
  yoga: ['wellness', 'fitness'],
  cinema: ['film'],
  theatre: ['theatre', 'comedy', 'concert'],
  museum: ['exhibition', 'education', 'childrens'],
  gallery: ['art', 'exhibition'],
  arts_centre: ['art', 'exhibition', 'crafts', 'theatre'],
  nightclub: ['party', 'music', 'dance'],
  books: ['literature', 'childrens'],
  library: ['literature', 'childrens', 'education'],
  place_of_worship: ['religion', 'causes'],
  community_centre: ['causes', 'childrens', 'games', 'dance', 'gardening'],
  garden_centre: ['gardening'],
  florist: ['crafts', 'gardening'],
  wine: ['wine_tasting'],
  brewery: ['drinks', 'music'],
  music_school: ['concert', 'music'],
  dancing_school: ['dance'],
  park: ['fitness', 'concert', 'film', 'farmers_market', 'gardening', 'childrens', 'causes'],
};

const SUPERTYPE_EVENT_TYPES: Partial<Record<PointSupertype, readonly string[]>> = {
  poi: ['causes', 'art', 'fitness', 'farmers_market', 'childrens', 'concert', 'gardening'],
  experience: ['food', 'art', 'sports', 'fitness', 'education', 'crafts'],
  service: ['education', 'open_house'],
  rental: ['open_house'],
};

/** The event types a point may hold, best fitting first; empty: any type (standalone events). */
export function eventTypesFor(supertype: PointSupertype, category: Category): readonly string[] {
  const own = KIND_EVENT_TYPES[category.key];
  if (own) return own;
  if (supertype === 'business') return GROUP_EVENT_TYPES[businessGroup(category)];
  return SUPERTYPE_EVENT_TYPES[supertype] ?? [];
}

/**
 * What is on, by event type: each a programme a real venue would list. Titles are one of these,
 * sometimes with the host, a day or a guest's name around it.
 */
const PROGRAMMES: Readonly<Record<string, readonly string[]>> = {
  music: [
    'Jazz Trio Night',
    'Open Mic Night',
    'Vinyl DJ Session',
    'Blues Brunch',
    'Acoustic Songwriters’ Circle',
    'Soul and Funk Night',
    'Bossa Nova Evening',
    'Folk Session',
    'Piano Bar Night',
    'Latin Jazz Evening',
    'Indie Unplugged',
    'Reggae Session',
  ],
  concert: [
    'Chamber Music Recital',
    'String Quartet: Haydn and Ravel',
    'Choir Spring Concert',
    'Baroque by Candlelight',
    'Brass Band in the Bandstand',
    'Youth Orchestra Showcase',
    'Organ Recital',
    'Piano Recital: Chopin Nocturnes',
  ],
  band_performance: [
    'Covers Band Night',
    'Local Bands Showcase',
    'Punk Matinee',
    'Tribute Night: The 90s',
    'Rockabilly Night',
    'Battle of the Bands',
    'Garage Rock Night',
  ],
  comedy: [
    'Stand-up Comedy Night',
    'Improv Jam',
    'New Material Night',
    'Comedy Open Mic',
    'Sketch Show Preview',
    'Late-night Comedy Club',
  ],
  theatre: [
    'Opening Night: A Doll’s House',
    'The Importance of Being Earnest',
    'Student Theatre Showcase',
    'Rehearsed Reading: New Writing',
    'Twelfth Night in the Round',
    'One-act Play Festival',
  ],
  art: [
    'Life Drawing Class',
    'Watercolour Afternoon',
    'Open Studio Evening',
    'Printmaking Taster',
    'Urban Sketching Walk',
    'Portrait Painting Workshop',
    'Collage and Zine Making',
  ],
  exhibition: [
    'Photography Exhibition: Streets After Dark',
    'Design Week Exhibition',
    'Local Makers Showcase',
    'Curator’s Tour',
    'New Acquisitions Preview',
    'Exhibition Opening: Maps and Memory',
    'Late Opening with Talks',
  ],
  farmers_market: [
    'Farmers’ Market',
    'Harvest Market',
    'Organic Produce Market',
    'Cheese and Bread Market',
    'Spring Plant and Produce Fair',
  ],
  food: [
    'Street Food Night',
    'Pop-up Supper Club',
    'Chef’s Tasting Menu',
    'Dumpling Workshop',
    'Pasta-making Class',
    'Regional Menu Week',
    'Bottomless Brunch',
    'Barbecue Cook-off',
    'Sourdough Masterclass',
    'Spice Market Dinner',
  ],
  drinks: [
    'Happy Hour Social',
    'Craft Beer Tasting',
    'Cocktail Masterclass',
    'Whisky Flight Night',
    'Gin Tasting',
    'Mezcal and Tacos Evening',
    'Tap Takeover',
    'Cider Festival',
  ],
  wine_tasting: [
    'Natural Wine Tasting',
    'Wines of Portugal Evening',
    'Sommelier’s Choice Flight',
    'Champagne and Oysters',
    'Rioja Masterclass',
    'Meet the Winemaker',
  ],
  networking: [
    'Startup Breakfast Meetup',
    'Women in Tech Networking',
    'Founders’ Evening',
    'Freelancers’ Coffee Morning',
    'Product Managers’ Meetup',
    'Creative Industries Mixer',
  ],
  business: [
    'Small Business Workshop',
    'Marketing for Beginners',
    'Pitch Night',
    'Bookkeeping Basics',
    'Selling Online: A Practical Workshop',
    'Tax Return Clinic',
  ],
  education: [
    'Intro to Python Workshop',
    'Public Lecture: The City’s Lost Rivers',
    'Language Exchange Evening',
    'Spanish for Travellers',
    'First Aid Course',
    'Photography for Beginners',
    'Local History Talk',
    'Coding Club for Teens',
  ],
  fitness: [
    'Sunrise Yoga',
    'HIIT Bootcamp',
    'Community 5K Run',
    'Kettlebell Class',
    'Spin Marathon',
    'Pilates for Beginners',
    'Boxing Fitness',
    'Couch to 5K Kick-off',
  ],
  sports: [
    'Five-a-side Tournament',
    'Derby Day Screening',
    'Beach Volleyball Cup',
    'Table Tennis Ladder',
    'Climbing Bouldering Comp',
    'Basketball 3x3',
  ],
  local_sport_competition: [
    'Open Tennis Tournament',
    'Neighbourhood Chess Championship',
    'Squash Club Ladder Finals',
    'Junior Swim Gala',
  ],
  party: ['Rooftop Party', 'Silent Disco', '80s Night', 'Disco Brunch', 'Costume Party', 'Throwback Party'],
  dance: [
    'Salsa Social',
    'Swing Dance for Beginners',
    'Tango Milonga',
    'Bachata Night',
    'Ceilidh',
    'Contemporary Dance Class',
  ],
  film: [
    'Classic Film Night: Casablanca',
    'Short Film Festival',
    'Documentary Screening and Q&A',
    'Outdoor Cinema: Jaws',
    'Kids’ Matinee',
    'Director’s Cut Double Bill',
    'World Cinema Club',
  ],
  literature: [
    'Book Club: This Month’s Novel',
    'Poetry Reading',
    'Author Talk',
    'Book Swap',
    'Writers’ Workshop',
    'Crime Fiction Evening',
    'Zine Fair',
  ],
  childrens: [
    'Kids’ Story Time',
    'Family Science Day',
    'Puppet Show',
    'Lego Club',
    'Half-term Art Camp',
    'Toddler Music Morning',
  ],
  crafts: [
    'Pottery Taster Session',
    'Knitting Circle',
    'Make Your Own Candle',
    'Embroidery Workshop',
    'Wreath Making',
    'Bookbinding Class',
    'Macramé Afternoon',
    'Leather Wallet Workshop',
    'Linocut Printing',
    'Mosaic Coasters Class',
    'Sewing Basics',
    'Calligraphy Taster',
    'Visible Mending Session',
  ],
  garage_sale: ['Community Yard Sale', 'Street Garage Sale', 'Car Boot Sale', 'Flea Market'],
  fundraising_auction: [
    'Silent Auction for the Animal Shelter',
    'School Fair and Auction',
    'Charity Art Auction',
    'Auction of Promises',
  ],
  fundraising_dinner_party: [
    'Charity Gala Dinner',
    'Fundraising Supper for the Food Bank',
    'Curry Night for the Hospice',
  ],
  causes: [
    'Beach Clean-up',
    'Tree Planting Day',
    'Blood Drive',
    'Litter Pick',
    'Repair Café',
    'Coat Drive',
    'Food Bank Collection',
  ],
  health: [
    'Free Health Check Day',
    'Mental Health Awareness Talk',
    'Flu Vaccination Clinic',
    'Blood Pressure Check',
    'CPR Training',
  ],
  wellness: ['Sound Bath and Meditation', 'Wellness Morning', 'Breathwork Session', 'Mindfulness Course'],
  open_house: [
    'Open Day',
    'Behind the Scenes Tour',
    'Meet the Team',
    'Anniversary Open House',
    'Community Open Day',
    'Customer Appreciation Day',
    'Demo Day',
    'Ask the Experts',
    'Grand Reopening',
    'Neighbours’ Evening',
  ],
  speed_dating: ['Speed Dating (30s–40s)', 'Singles Mixer', 'Speed Dating for Book Lovers'],
  games: [
    'Board Game Night',
    'Pub Quiz',
    'Retro Gaming Tournament',
    'Trivia Night',
    'Chess Club',
    'Mahjong Afternoon',
    'Bingo Night',
    'Dungeons and Dragons One-shot',
  ],
  gardening: ['Seed Swap', 'Community Garden Work Day', 'Composting Workshop', 'Pruning Demonstration'],
  shopping: [
    'Late-night Shopping',
    'Vintage Fair',
    'Makers’ Christmas Market',
    'Sample Sale',
    'Spring Collection Launch',
    'Customer Evening',
  ],
  masquerade: ['Masquerade Ball'],
  gay_parade: ['Pride Parade'],
  religion: ['Community Choir Evening', 'Interfaith Dialogue', 'Harvest Festival', 'Carol Service'],
  home: ['Home Renovation Fair', 'DIY Workshop', 'Upcycling Furniture Class'],
  hackathon: ['Civic Hackathon', '48-hour Climate Hack', 'Open Data Hack Day'],
};

const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

export interface EventTitleParts {
  rng: Random;
  /** the event category's key and display name. */
  type: string;
  typeName: string;
  /** the host's name, or a community venue for a standalone event. */
  venue: string;
  city: string;
  /** a guest's or organiser's name. */
  person: string;
  /** the first start, local time: weekday and month in a title match the date. */
  localStart: Date;
}

/** The programmes of a type; unknown and custom types read as "{Type} at the venue". */
export function programmesFor(type: string, typeName: string): readonly string[] {
  return PROGRAMMES[type] ?? [`${typeName} Meetup`, `${typeName} Workshop`, `${typeName} Social`];
}

/** An event title: a programme, alone or framed with the venue, the (true) day, month or a guest. */
export function eventTitle(p: EventTitleParts): string {
  const what = p.rng.pick(programmesFor(p.type, p.typeName));
  const weekday = WEEKDAYS[p.localStart.getUTCDay()] ?? '';
  const month = MONTHS[p.localStart.getUTCMonth()] ?? '';
  const frames: ((what: string) => string)[] = [
    (w) => w,
    (w) => `${w} at ${p.venue}`,
    (w) => `${weekday} ${w}`,
    (w) => `${w} with ${p.person}`,
    (w) => `${month} ${w}`,
    (w) => `${p.city} ${w}`,
  ];
  return p.rng.pick(frames)(what);
}
