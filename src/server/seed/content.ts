/**
 * Word lists and templates for the demo data: names of people, streets and places; name patterns,
 * taglines and descriptions per kind of point; titles for events, posts, help requests and incidents;
 * review and comment texts. Plain, believable English, varied enough that a screen of results does
 * not repeat itself. Every template is a function of a small context, so filling one costs nothing.
 */
import type { Category } from '../../shared/domain/categories';
import type { Random } from './random';

/** A word list written compactly: 'Oak, Maple, Spring Garden' -> ['Oak', 'Maple', 'Spring Garden']. */
function list(text: string): readonly string[] {
  return text.split(/,\s*/);
}

/** 'restaurant=34 cafe=20' -> { restaurant: 34, cafe: 20 } */
function numbers(text: string): Readonly<Record<string, number>> {
  return Object.fromEntries(
    text
      .split(/\s+/)
      .map((pair) => pair.split('='))
      .map(([k, v]) => [k, Number(v)]),
  );
}

/** { food: 'restaurant deli' } -> Map { restaurant => food, deli => food } */
function invert<G extends string>(groups: Record<G, string>): ReadonlyMap<string, G> {
  return new Map(
    (Object.entries(groups) as [G, string][]).flatMap(([group, keys]) =>
      keys.split(/\s+/).map((key) => [key, group] as const),
    ),
  );
}

export const FIRST_NAMES = list(
  'Olivia, Liam, Emma, Noah, Ava, Elijah, Sophia, James, Isabella, William, Mia, Benjamin, Charlotte, Lucas, Amelia, Henry, Harper, Theodore, Evelyn, Jack, Abigail, Levi, Emily, Alexander, Ella, Mateo, Scarlett, Daniel, Grace, Michael, Chloe, Mason, Victoria, Sebastian, Riley, Ethan, Aria, Logan, Lily, Owen, Aurora, Samuel, Zoey, Jacob, Nora, Asher, Hannah, Aiden, Layla, John, Priya, Arjun, Aisha, Omar, Fatima, Yusuf, Mei, Wei, Yuki, Hiro, Sofia, Diego, Lucia, Carlos, Valentina, Javier, Camila, Andres, Isabel, Luis, Chiara, Marco, Giulia, Luca, Elena, Matteo, Anna, Jonas, Lena, Felix, Clara, Emil, Ingrid, Lars, Freya, Nils, Amara, Kwame, Zara, Tariq, Nadia, Ivan, Katya, Dmitri, Ana, Tomás, Inês, Rafael, Maya, Noor, Grace, Patrick, Siobhan, Declan, Rosa, Hugo, Léa, Louis, Chloé, Jules, Kenji, Hana, Min-jun, Ji-woo, Linh, Minh, Tendai, Chidi, Ngozi, Bongani',
);

export const LAST_NAMES = list(
  "Smith, Johnson, Williams, Brown, Jones, Garcia, Miller, Davis, Rodriguez, Martinez, Hernandez, Lopez, Gonzalez, Wilson, Anderson, Thomas, Taylor, Moore, Jackson, Martin, Lee, Perez, Thompson, White, Harris, Sanchez, Clark, Ramirez, Lewis, Robinson, Walker, Young, Allen, King, Wright, Scott, Torres, Nguyen, Hill, Flores, Green, Adams, Nelson, Baker, Hall, Rivera, Campbell, Mitchell, Carter, Roberts, Patel, Shah, Kumar, Singh, Khan, Ali, Chen, Wang, Li, Zhang, Tanaka, Sato, Suzuki, Kim, Park, Choi, Tran, Pham, Rossi, Russo, Ferrari, Bianchi, Romano, Müller, Schmidt, Schneider, Fischer, Weber, Becker, Wagner, Dubois, Moreau, Laurent, Lefebvre, Fontaine, Silva, Santos, Oliveira, Costa, Pereira, Jensen, Nielsen, Hansen, Larsen, Andersson, Johansson, Kowalski, Nowak, Novak, Horvat, O'Brien, Murphy, Kelly, Byrne, Walsh, Okafor, Mensah, Mwangi, Ivanova, Petrov, Hughes, Evans, Morgan, Price, Bennett, Foster, Reyes, Cohen, Levy, Mendes",
);

export const STREET_NAMES = list(
  'Main, Oak, Maple, Cedar, Elm, Pine, Park, Lake, Hill, Church, Mill, River, Market, Bridge, King, Queen, Victoria, Union, Franklin, Washington, Jefferson, Lincoln, Madison, Highland, Sunset, Chestnut, Walnut, Willow, Spring, Water, Harbor, Garden, Orchard, Meadow, Forest, Station, High, School, College, Mercer, Hudson, Grand, Bleecker, Carroll, Prospect, Atlantic, Pacific, Court, Clinton, Bedford, Greenwich, Spring Garden, Vine, Ash, Birch, Laurel, Magnolia, Poplar, Sycamore, Juniper, Riverside, Lakeview, Hillcrest, Fairview, Greenway, Kingsley, Ashford, Brookside, Foxhall, Canal, Wharf, Dock, Cherry, Rose, Linden, Hawthorn, Beacon, Crown, Liberty, Harrison',
);

export const STREET_SUFFIXES = list('St, St, St, Ave, Ave, Rd, Blvd, Lane, Way, Place, Drive');

const ADJECTIVES = list(
  'Golden, Blue, Little, Old, Happy, Green, Silver, Rustic, Urban, Crimson, Velvet, Copper, Humble, Bright, Lucky, Hidden, Cozy, Wild, Royal, Modern, Northern, Sunny, Grand, Secret, Red, Black, White, Honest, Brave, Gentle, Salty, Sweet, Quiet, Merry, Tiny, Iron, Stone, Amber, Indigo, Jolly',
);

const NOUNS = list(
  'Fox, Anchor, Lantern, Oak, Sparrow, Harbor, Kettle, Compass, Acorn, Orchard, Ember, Thistle, Juniper, Willow, Owl, Bee, Bridge, Lighthouse, Feather, Pebble, Fern, Heron, Rabbit, Crow, Anvil, Barrel, Cedar, Clover, Magpie, Robin, Wolf, Bear, Otter, Pine, Sail, Star, Moon, Meadow, Garden, Door',
);

const PLACE_WORDS = list(
  'Riverside, Hillcrest, Lakeside, Old Town, Westfield, Elm Grove, Mill Creek, Northgate, Southbank, Eastwood, Brookfield, Fairmont, Highgate, Kingsbridge, Oakwood, Stonebridge, Harborview, Cedar Hollow, Greenfield, Ashbury, Maple Ridge, Willow Bend, Crescent, Union Square',
);

const CUISINES = [
  {
    key: 'italian',
    names: ['Trattoria {L}', 'Osteria {First}', 'Pasta {N}', '{L} Cucina', 'Nonna {First}', 'Il {N} Rosso'],
  },
  {
    key: 'mexican',
    names: [
      'Taqueria {First}',
      'Casa {First}',
      'El {N} Verde',
      '{Adj} Cactus Cantina',
      'La Cocina de {First}',
    ],
  },
  { key: 'japanese', names: ['Sushi {N}', 'Izakaya {L}', '{Adj} Ramen Bar', 'Kaiten {N}', 'Yume Sushi'] },
  { key: 'thai', names: ['Thai {N}', 'Bangkok Street Kitchen', '{Adj} Elephant Thai', 'Lemongrass & Lime'] },
  {
    key: 'indian',
    names: ['{Adj} Tandoor', 'Spice of {City}', 'Masala House', 'Curry & Co.', 'The Saffron {N}'],
  },
  { key: 'french', names: ['Le Petit {N}', 'Bistro {L}', 'Chez {First}', 'Café de la {N}', 'Brasserie {L}'] },
  { key: 'greek', names: ['The {Adj} Olive', 'Taverna {First}', 'Aegean Grill', 'Santorini Kitchen'] },
  { key: 'lebanese', names: ['Cedar & Za’atar', 'Beirut Kitchen', '{Adj} Falafel', 'Mezze {N}'] },
  { key: 'korean', names: ['Seoul {N}', '{Adj} Tiger BBQ', 'Kimchi House', 'Bibim Bar'] },
  { key: 'vietnamese', names: ['Pho {N}', 'Saigon Corner', '{Adj} Lotus', 'Banh Mi {First}'] },
  {
    key: 'american',
    names: ['{L}’s Diner', 'The {Adj} Burger', '{Street} Smokehouse', 'Liberty Grill', '{City} Chophouse'],
  },
  { key: 'spanish', names: ['Tapas {N}', 'La {Adj} Paella', 'Bodega {L}', 'Casa Sol'] },
  { key: 'ethiopian', names: ['Addis Kitchen', 'Injera House', 'Blue Nile Café'] },
  { key: 'turkish', names: ['Istanbul Grill', 'Anatolia Kitchen', '{Adj} Kebab House'] },
  {
    key: 'seafood',
    names: ['The {Adj} Lobster', '{L}’s Oyster Bar', 'Harbor Fish House', 'Catch of the Day'],
  },
  { key: 'vegetarian', names: ['Green {N}', 'The Humble Sprout', 'Root & Leaf', 'Garden Table'] },
  {
    key: 'pizza',
    names: ['{L}’s Pizzeria', 'Slice of {City}', 'The {Adj} Crust', 'Forno {First}', 'Brick Oven Pizza Co.'],
  },
] as const;

/** Per-category naming: words for the kind of place, nouns for "The {Adj} {Noun}" names, taglines. */
interface Naming {
  kinds?: readonly string[];
  nouns?: readonly string[];
  taglines?: readonly string[];
}

const NAMING: Record<string, Naming> = {
  cafe: {
    kinds: ['Café', 'Coffee House', 'Espresso Bar', 'Coffee Co.'],
    nouns: ['Bean', 'Cup', 'Roast', 'Brew', 'Grind', 'Mug', 'Crema', 'Kettle'],
    taglines: [
      'Small-batch coffee, roasted weekly',
      'Flat whites and fresh pastries',
      'Your morning, sorted',
      'Specialty coffee and quiet corners',
      'Single-origin pour-overs, all day',
    ],
  },
  coffee: { kinds: ['Coffee Roasters', 'Coffee Merchants'], nouns: ['Bean', 'Roast', 'Grind'] },
  bakery: {
    kinds: ['Bakery', 'Bake House', 'Bread Co.', 'Boulangerie'],
    nouns: ['Croissant', 'Loaf', 'Crumb', 'Whisk', 'Rolling Pin', 'Oven', 'Baguette'],
    taglines: [
      'Sourdough baked before sunrise',
      'Fresh bread every morning',
      'Croissants, cakes and good company',
      'Baking with local flour since {Year}',
    ],
  },
  pastry: {
    kinds: ['Patisserie', 'Pastry Shop', 'Cake Studio'],
    nouns: ['Éclair', 'Macaron', 'Meringue', 'Tart'],
  },
  bar: {
    kinds: ['Bar', 'Cocktail Bar', 'Lounge', 'Tap Room'],
    nouns: ['Barrel', 'Anchor', 'Fox', 'Owl', 'Lantern', 'Olive', 'Corkscrew'],
    taglines: [
      'Craft cocktails and late nights',
      'Happy hour every weekday 5-7',
      'Natural wines and small plates',
      'Live music on Thursdays',
    ],
  },
  pub: {
    kinds: ['Pub', 'Tavern', 'Arms', 'Alehouse'],
    nouns: ['Crown', 'Lion', 'Plough', 'Swan', 'Anchor', 'Rose', 'Stag'],
    taglines: [
      'Real ales and a proper Sunday roast',
      'Quiz night every Tuesday',
      'Your local since {Year}',
      'Pints, pies and the big match',
    ],
  },
  biergarten: { kinds: ['Beer Garden', 'Biergarten'] },
  fast_food: {
    kinds: ['Burgers', 'Grill', 'Kitchen', 'Eats', 'Chicken Shack'],
    nouns: ['Bun', 'Patty', 'Fry', 'Shake'],
    taglines: [
      'Smash burgers and hand-cut fries',
      'Fast, fresh and made to order',
      'Open late for the hungry',
    ],
  },
  ice_cream: {
    kinds: ['Ice Cream', 'Gelateria', 'Creamery'],
    nouns: ['Scoop', 'Cone', 'Sundae'],
    taglines: ['Small-batch gelato, made daily', 'Thirty flavours and counting'],
  },
  hotel: {
    kinds: ['Hotel', 'Inn', 'Suites', 'House Hotel'],
    nouns: ['Lantern', 'Crown', 'Harbor', 'Park', 'Meridian', 'Regent'],
    taglines: [
      'Boutique rooms in the heart of {City}',
      'Rooftop bar and city views',
      'Comfortable rooms, honest prices',
      'Free breakfast and late check-out',
    ],
  },
  hairdresser: {
    kinds: ['Hair Studio', 'Salon', 'Hair Lounge'],
    nouns: ['Comb', 'Shear', 'Curl', 'Mirror'],
    taglines: ['Cuts, colour and styling', 'Walk-ins welcome', 'Balayage specialists'],
  },
  barber: {
    kinds: ['Barbers', 'Barbershop', 'Barber Co.'],
    nouns: ['Razor', 'Blade', 'Pole'],
    taglines: ['Hot towel shaves and sharp fades', 'Walk-ins welcome, no fuss'],
  },
  florist: {
    kinds: ['Flowers', 'Florist', 'Flower Studio'],
    nouns: ['Peony', 'Tulip', 'Bloom', 'Petal', 'Stem'],
    taglines: ['Same-day bouquets across {City}', 'Seasonal flowers, arranged by hand'],
  },
  books: {
    kinds: ['Books', 'Bookshop', 'Booksellers'],
    nouns: ['Page', 'Quill', 'Bookmark', 'Chapter'],
    taglines: ['New, used and rare books', 'Author readings every month', 'Independent since {Year}'],
  },
  pharmacy: {
    kinds: ['Pharmacy', 'Chemist', 'Drugstore'],
    taglines: [
      'Prescriptions ready in 15 minutes',
      'Your neighbourhood pharmacy',
      'Free blood pressure checks',
    ],
  },
  gym: {
    kinds: ['Fitness', 'Gym', 'Athletic Club', 'Strength Studio'],
    nouns: ['Iron', 'Pulse', 'Forge', 'Summit'],
    taglines: ['Open early, open late', 'Classes for every level', 'First week free'],
  },
  supermarket: {
    kinds: ['Market', 'Grocer', 'Foods', 'Supermarket'],
    taglines: ['Fresh produce every day', 'Local farms, fair prices', 'Groceries delivered in an hour'],
  },
  convenience: {
    kinds: ['Corner Store', 'Mini Mart', 'Deli & Grocery', 'Convenience'],
    taglines: ['Open late, every day', 'Snacks, drinks and essentials'],
  },
  restaurant: {
    kinds: ['Kitchen', 'Bistro', 'Grill', 'Eatery', 'Restaurant', 'Table'],
    nouns: ['Fig', 'Olive', 'Spoon', 'Pepper', 'Ladle', 'Hearth', 'Saffron', 'Thyme'],
    taglines: [
      'Seasonal plates and natural wine',
      'Family recipes, made from scratch',
      'Book ahead for weekend brunch',
      'Farm-to-table cooking in {City}',
      'Open kitchen, wood-fired oven',
      'Lunch specials every weekday',
    ],
  },
  clothes: {
    kinds: ['Boutique', 'Clothing', 'Outfitters', 'Apparel'],
    taglines: ['Independent labels and vintage finds', 'Sustainable fashion for every day'],
  },
  dentist: {
    kinds: ['Dental', 'Dental Care', 'Family Dentistry'],
    taglines: ['Gentle care for the whole family', 'New patients welcome'],
  },
  doctors: {
    kinds: ['Medical Practice', 'Family Medicine', 'Health Clinic'],
    taglines: ['Same-day appointments available', 'Family doctors who listen'],
  },
  lawyer: {
    kinds: ['Law', 'Legal', 'Attorneys at Law'],
    taglines: ['Straight answers to legal questions', 'Free first consultation'],
  },
  accountant: {
    kinds: ['Accounting', 'CPA', 'Tax & Accounts'],
    taglines: ['Tax returns without the headache', 'Bookkeeping for small businesses'],
  },
  estate_agent: {
    kinds: ['Realty', 'Properties', 'Real Estate', 'Homes'],
    taglines: ['Helping {City} move since {Year}', 'Free home valuations'],
  },
  car_repair: {
    kinds: ['Auto Repair', 'Garage', 'Motors', 'Auto Care'],
    taglines: ['Honest repairs, fair prices', 'MOT, service and tyres', 'Same-day oil changes'],
  },
  nail_salon: {
    kinds: ['Nails', 'Nail Bar', 'Nail Studio'],
    taglines: ['Gel, acrylic and nail art', 'Walk-ins welcome'],
  },
  beauty: {
    kinds: ['Beauty', 'Beauty Bar', 'Skin Studio'],
    taglines: ['Facials, brows and lashes', 'Treat yourself'],
  },
  laundry: {
    kinds: ['Laundromat', 'Wash & Fold', 'Laundry'],
    taglines: ['Same-day wash and fold', 'Free wifi while you wait'],
  },
  deli: {
    kinds: ['Deli', 'Delicatessen', 'Sandwich Shop'],
    taglines: ['Stacked sandwiches and cured meats', 'Imported cheese and charcuterie'],
  },
  wine: {
    kinds: ['Wine Shop', 'Wine Merchants', 'Cellars'],
    taglines: ['Natural and organic wines', 'Free tastings on Saturdays'],
  },
};

/** Weights that make the common kinds of business common (the rest weigh 1). */
export const BUSINESS_TYPE_WEIGHTS: Readonly<Record<string, number>> = numbers(
  'restaurant=34 cafe=20 fast_food=9 bar=7 pub=5 bakery=6 coffee=2 pastry=2 ice_cream=3 hairdresser=5 barber=4 pharmacy=4 supermarket=5 convenience=5 hotel=5 clothes=5 beauty=3 nail_salon=3 gym=4 dentist=3 doctors=3 car_repair=3 florist=3 books=3 deli=3 laundry=2 dry_cleaning=2 bank=3 fuel=3 lawyer=2 estate_agent=3 accountant=2 wine=2 alcohol=2 bicycle=2 shoes=2 jewelry=2 mobile_phone=2 optician=2 pet=2 veterinary=2 yoga=2 museum=2 cinema=2 theatre=2 nightclub=2 guest_house=2',
);

/** Broad groups of businesses, for descriptions and opening hours. */
export type BusinessGroup =
  | 'food'
  | 'drink'
  | 'cafe'
  | 'shop'
  | 'health'
  | 'beauty'
  | 'office'
  | 'lodging'
  | 'leisure'
  | 'auto'
  | 'education'
  | 'trade'
  | 'civic';

const GROUP_OVERRIDES: ReadonlyMap<string, BusinessGroup> = invert({
  cafe: 'cafe coffee bakery pastry ice_cream tea chocolate confectionery',
  drink: 'bar pub biergarten nightclub hookah_lounge karaoke_box brewery distillery winery',
  food: 'restaurant fast_food food_court caterer deli seafood',
  beauty: 'hairdresser barber beauty nail_salon massage sauna tattoo piercing cosmetics perfumery',
  auto: 'car_repair car_wash fuel tyres car car_parts car_rental motorcycle motorcycle_repair motorcycle_rental driving_school',
  education:
    'school college university kindergarten language_school music_school dancing_school prep_school library childcare',
  civic:
    'police fire_station townhall courthouse post_office community_centre place_of_worship blood_donation',
  health: 'hospital clinic doctors dentist pharmacy chemist veterinary optician optometrist',
});

export function businessGroup(category: Category): BusinessGroup {
  const override = GROUP_OVERRIDES.get(category.key);
  if (override) return override;
  const tag = category.osm ?? '';
  if (tag.startsWith('shop=')) return 'shop';
  if (tag.startsWith('office=')) return 'office';
  if (tag.startsWith('healthcare=')) return 'health';
  if (tag.startsWith('craft=')) return 'trade';
  if (tag.startsWith('tourism=')) {
    return /hotel|hostel|motel|guest|apartment|chalet|resort|camp|caravan/.test(category.key)
      ? 'lodging'
      : 'leisure';
  }
  if (tag.startsWith('leisure=')) return 'leisure';
  if (tag.startsWith('amenity=')) return 'leisure';
  return 'shop';
}

/** The words a person would use for a category: "Bag / Luggage Store" reads as "Bag Store". */
export function kindName(category: Category): string {
  const name = category.name;
  const slash = name.indexOf(' / ');
  if (slash < 0) return name;
  const first = name.slice(0, slash);
  const last = name.split(' ').pop() ?? '';
  return /^(Store|Shop|Office|Center|Centre|Studio)$/.test(last) && !first.endsWith(last)
    ? `${first} ${last}`
    : first;
}

/** Lower-cases a phrase for use inside a sentence, keeping acronyms (ATM, IT) as they are. */
export function lowerPhrase(phrase: string): string {
  return phrase
    .split(' ')
    .map((word) => (word.length > 1 && word === word.toUpperCase() ? word : word.toLowerCase()))
    .join(' ');
}

/** "a bakery", "an art store", "an ATM", "a university". */
export function withArticle(phrase: string): string {
  const vowel = /^(?:[aeio]|u(?!ni|se|su|ro)|hour|honest)/i.test(phrase) && !/^(?:one|eu)/i.test(phrase);
  const acronym = /^[AEFHILMNORSX][A-Z]/.test(phrase);
  const an = acronym || (vowel && !/^[A-Z]{2}/.test(phrase));
  return `${an ? 'an' : 'a'} ${phrase}`;
}

/** What a template can use. */
export interface Ctx {
  first: string;
  last: string;
  city: string;
  street: string;
  kind: string;
  year: number;
  adj: string;
  noun: string;
  place: string;
}

export function makeCtx(rng: Random, city: string, kind: string): Ctx {
  return {
    first: rng.pick(FIRST_NAMES),
    last: rng.pick(LAST_NAMES),
    city,
    street: rng.pick(STREET_NAMES),
    kind,
    year: rng.int(1952, 2021),
    adj: rng.pick(ADJECTIVES),
    noun: rng.pick(NOUNS),
    place: rng.pick(PLACE_WORDS),
  };
}

function fill(template: string, c: Ctx): string {
  return template
    .replace('{First}', c.first)
    .replace('{L}', c.last)
    .replace('{City}', c.city)
    .replace('{Street}', c.street)
    .replace('{Adj}', c.adj)
    .replace('{N}', c.noun)
    .replace('{Year}', String(c.year))
    .replace('{Place}', c.place);
}

/** A restaurant's cuisine (stored as the point's subtype) and a name that fits it. */
export function restaurantName(rng: Random, c: Ctx): { title: string; cuisine: string } {
  const cuisine = rng.pick(CUISINES);
  return { title: fill(rng.pick(cuisine.names), c), cuisine: cuisine.key };
}

export function businessName(rng: Random, category: Category, c: Ctx): string {
  const naming = NAMING[category.key];
  const kind = naming?.kinds ? rng.pick(naming.kinds) : c.kind;
  const noun = naming?.nouns ? rng.pick(naming.nouns) : c.noun;
  const group = businessGroup(category);
  if (group === 'office' && rng.chance(0.5)) {
    return `${c.last} & ${rng.pick(LAST_NAMES)}${rng.chance(0.5) ? ` ${kind}` : ''}`;
  }
  switch (rng.int(0, 7)) {
    case 0:
    case 1:
      return `${c.last}’s ${kind}`;
    case 2:
      return `The ${c.adj} ${noun}`;
    case 3:
      return `${c.city} ${kind}`;
    case 4:
      return `${c.adj} ${noun} ${kind}`;
    case 5:
      return `${c.street} Street ${kind}`;
    case 6:
      return `${noun} & ${rng.pick(naming?.nouns ?? NOUNS)}`;
    default:
      return `${c.place} ${kind}`;
  }
}

/** Taglines any trading business may use (never a fire station or a school: see GENERIC_GROUPS). */
const GENERIC_TAGLINES = [
  'Family-run since {Year}',
  'Open every day of the week',
  'Proudly independent',
  'Serving {City} since {Year}',
  'Friendly faces, fair prices',
  'Quality you can count on',
  'Locally owned and operated',
  'Rated one of the best in {City}',
  'Just around the corner from {Street} Street',
];
/** Groups that take bookings, to whom "Now taking online bookings" fits. */
const BOOKING_GROUPS: ReadonlySet<BusinessGroup> = new Set([
  'food',
  'beauty',
  'health',
  'lodging',
  'leisure',
  'auto',
]);
/** Groups that trade, and so may use the generic taglines (civic and education places do not). */
const GENERIC_GROUPS: ReadonlySet<BusinessGroup> = new Set([
  'food',
  'drink',
  'cafe',
  'shop',
  'health',
  'beauty',
  'office',
  'lodging',
  'leisure',
  'auto',
  'trade',
]);

const GROUP_TAGLINES: Record<BusinessGroup, readonly string[]> = {
  food: [
    'Fresh, local and made with care',
    'Takeaway and delivery available',
    'Reservations recommended on weekends',
    'Brunch served until 3 pm',
  ],
  drink: ['Cold beer and good company', 'Happy hour 5-7 every weekday', 'Live DJs on Fridays and Saturdays'],
  cafe: ['Great coffee, homemade cakes', 'Free wifi and plenty of sockets', 'Breakfast served all day'],
  shop: [
    'Something for everyone',
    'Free local delivery over $50',
    'New arrivals every week',
    'Gift wrapping on request',
  ],
  health: ['New patients welcome', 'Evening appointments available', 'Care you can trust'],
  beauty: ['Walk-ins welcome', 'Book online in seconds', 'Look good, feel better'],
  office: ['Free first consultation', 'Practical advice, plain language', 'Trusted by local businesses'],
  lodging: [
    'Comfortable rooms in the heart of {City}',
    'Breakfast included',
    'Free cancellation on most stays',
  ],
  leisure: ['Fun for the whole family', 'Tickets available at the door', 'Group bookings welcome'],
  auto: ['Honest repairs, fair prices', 'While-you-wait service', 'All makes and models'],
  education: ['Small classes, big results', 'Enrolling now for next term', 'Learning for every age'],
  trade: ['Free quotes, no call-out charge', 'Fully licensed and insured', 'Craftsmanship that lasts'],
  civic: ['Serving the community', 'Open to everyone', 'Here to help'],
};

/** Every tagline template a business of this category may get: its own, its group's, the generic ones if it trades. */
export function businessTaglineTemplates(category: Category): {
  specific: readonly string[];
  group: readonly string[];
  generic: readonly string[];
} {
  const group = businessGroup(category);
  const generic = GENERIC_GROUPS.has(group)
    ? [...GENERIC_TAGLINES, ...(BOOKING_GROUPS.has(group) ? ['Now taking online bookings'] : [])]
    : [];
  return { specific: NAMING[category.key]?.taglines ?? [], group: GROUP_TAGLINES[group], generic };
}

export function businessTagline(rng: Random, category: Category, c: Ctx): string {
  const { specific, group, generic } = businessTaglineTemplates(category);
  if (specific.length > 0 && rng.chance(0.6)) return fill(rng.pick(specific), c);
  if (generic.length === 0 || rng.chance(0.55)) return fill(rng.pick(group), c);
  return fill(rng.pick(generic), c);
}

type Sentence = (t: string, c: Ctx) => string;

const OPENERS: readonly Sentence[] = [
  (t, c) => `${t} is ${withArticle(lowerPhrase(c.kind))} in the heart of ${c.city}.`,
  (t, c) => `Tucked away on ${c.street} Street, ${t} has been part of ${c.city} since ${c.year}.`,
  (t, c) => `Welcome to ${t}, one of ${c.city}’s best-loved places for locals and visitors alike.`,
  (t, c) => `${t} was founded in ${c.year} by ${c.first} ${c.last}, who still runs it today.`,
  (t, c) => `At ${t} we keep things simple: good service, fair prices and a warm welcome in ${c.city}.`,
  (t, c) => `${t} is an independent ${lowerPhrase(c.kind)}, a short walk from ${c.place}.`,
];

const GROUP_SENTENCES: Record<BusinessGroup, readonly Sentence[]> = {
  food: [
    () => 'The menu changes with the seasons and leans on produce from farms less than a hundred miles away.',
    () => 'Everything is cooked from scratch, from the stocks to the bread and the desserts.',
    () => 'Weekday lunch specials are ready in under fifteen minutes for those in a hurry.',
    () => 'There is a quiet back room for private dinners of up to twenty guests.',
    () =>
      'Vegetarian, vegan and gluten-free dishes are marked on the menu, and the kitchen is happy to adapt.',
    (_t, c) => `Chef ${c.first} ${c.last} trained in some of the city’s best kitchens before opening here.`,
  ],
  drink: [
    () =>
      'The list runs from local craft beer on tap to classic cocktails and a short, careful wine selection.',
    () => 'Expect live music on Thursdays, a quiz on Tuesdays and big games on the screens at weekends.',
    () => 'Bar snacks are served until late and the kitchen does a mean burger.',
    () => 'The back terrace is heated in winter and shaded in summer.',
  ],
  cafe: [
    () => 'Coffee is roasted in small batches and brewed by baristas who care about every cup.',
    () => 'Pastries come out of the oven every morning, and the cinnamon buns rarely last past noon.',
    () => 'There are plenty of tables, fast wifi and sockets for anyone who needs to get some work done.',
    () => 'Oat, almond and soy milk are always available at no extra charge.',
  ],
  shop: [
    () => 'The shelves are stocked with carefully chosen products, many from small local makers.',
    () => 'Staff are happy to order in anything that is not in stock, usually within a couple of days.',
    () => 'Gift cards are available in store and online.',
    () => 'Returns are easy within thirty days with a receipt.',
    () => 'Free local delivery is available for orders over fifty dollars.',
  ],
  health: [
    () => 'The team offers same-day appointments for urgent needs and evening slots for those who work late.',
    () => 'Most major insurance plans are accepted, and self-pay prices are listed openly.',
    () => 'Accessible entrance, lift to all floors and a quiet waiting area.',
    () => 'New patients can register online in a few minutes.',
  ],
  beauty: [
    () => 'Every appointment starts with a short consultation so the result is exactly what you wanted.',
    () => 'Only cruelty-free products are used, and most are made by small independent brands.',
    () => 'Walk-ins are welcome when there is space, but booking ahead is recommended on Saturdays.',
  ],
  office: [
    () => 'The practice works with individuals, families and small businesses across the region.',
    () => 'The first consultation is free and comes with a clear quote, with no hidden fees later.',
    () => 'Meetings can be held in person or by video call, whichever suits you.',
  ],
  lodging: [
    () => 'Rooms are bright and quiet, with comfortable beds, fast wifi and a proper desk.',
    () => 'Breakfast is served every morning from seven until half past ten.',
    () => 'The front desk is open around the clock and can arrange airport transfers.',
    () => 'Public transport, restaurants and the main sights are all within walking distance.',
  ],
  leisure: [
    () => 'There is something for every age, and most activities need no previous experience.',
    () => 'Tickets can be bought online or at the door, with discounts for students and groups.',
    () => 'The venue is fully accessible and has a café on site.',
  ],
  auto: [
    () => 'Mechanics are certified to work on all makes and models, including hybrids and electric cars.',
    () => 'Every job starts with a free inspection and a written quote.',
    () => 'Customers can wait in the lounge with coffee and wifi, or use the free courtesy car.',
  ],
  education: [
    () => 'Classes are kept small so every student gets proper attention.',
    () => 'Courses run all year, with intensive options during the summer.',
    () => 'Teachers are qualified, experienced and genuinely enjoy what they do.',
  ],
  trade: [
    () => 'Quotes are free and come with a clear breakdown of parts and labour.',
    () => 'All work is guaranteed for two years.',
    () => 'The workshop takes on jobs of every size, from small repairs to full projects.',
  ],
  civic: [
    () => 'Everyone is welcome, and the staff are happy to point you in the right direction.',
    () => 'Information about services and opening times is posted at the entrance and online.',
  ],
};

const CLOSERS: readonly Sentence[] = [
  (_t, c) => `Find us on ${c.street} Street, or call ahead if you would like to book.`,
  () => 'We look forward to seeing you soon.',
  (_t, c) => `Parking is available nearby, and the ${c.place} bus stop is two minutes away.`,
  () => 'Follow us online for news, offers and seasonal opening times.',
  () => 'Dogs on a lead are welcome.',
];

/**
 * A description of one to six sentences. Long ones (asked for by `long`) are guaranteed to pass 250
 * characters, so the detail panel's "more" toggle appears for them.
 */
export function businessDescription(
  rng: Random,
  title: string,
  group: BusinessGroup,
  c: Ctx,
  long: boolean,
): string {
  const parts = [rng.pick(OPENERS)(title, c)];
  const pool = GROUP_SENTENCES[group];
  if (!long) {
    if (rng.chance(0.6)) parts.push(rng.pick(pool)(title, c));
    return clampShort(parts.join(' '));
  }
  const start = rng.int(0, pool.length - 1);
  for (let i = 0; i < pool.length && (parts.length < 4 || parts.join(' ').length <= 260); i++) {
    parts.push((pool[(start + i) % pool.length] as Sentence)(title, c));
  }
  parts.push(rng.pick(CLOSERS)(title, c));
  let text = parts.join(' ');
  while (text.length <= 250) text += ' ' + rng.pick(CLOSERS)(title, c);
  return text;
}

/** Short descriptions stay short: they must not reach the 250-character toggle by accident. */
function clampShort(text: string): string {
  if (text.length <= 240) return text;
  const cut = text.lastIndexOf('.', 240);
  return cut > 0 ? text.slice(0, cut + 1) : text.slice(0, 240);
}

/** Generic long text for kinds of points without their own sentence pool. */
export function genericDescription(
  rng: Random,
  first: string,
  pool: readonly string[],
  long: boolean,
): string {
  const parts = [first];
  if (!long) {
    if (rng.chance(0.5)) parts.push(rng.pick(pool));
    return clampShort(parts.join(' '));
  }
  const start = rng.int(0, pool.length - 1);
  for (let i = 0; i < pool.length && parts.join(' ').length <= 260; i++)
    parts.push(pool[(start + i) % pool.length] as string);
  let text = parts.join(' ');
  while (text.length <= 250) text += ' ' + rng.pick(pool);
  return text;
}

// --- points of interest ----------------------------------------------------------------------

export function poiName(rng: Random, category: Category, c: Ctx): string {
  const kind = kindName(category);
  switch (category.key) {
    case 'memorial':
    case 'monument':
      return rng.chance(0.5) ? `${c.first} ${c.last} Memorial` : `${c.city} War Memorial`;
    case 'park':
    case 'garden':
    case 'nature_reserve':
      return rng.chance(0.5) ? `${c.place} ${kind}` : `${c.last} ${kind}`;
    case 'viewpoint':
      return `${c.place} Lookout`;
    case 'fountain':
      return `${c.adj} ${c.noun} Fountain`;
    case 'artwork':
      return `“${c.adj} ${c.noun}” by ${c.first} ${c.last}`;
    case 'beach':
      return `${c.place} Beach`;
    case 'custom_poi':
      return `${c.place} Corner`;
    default:
      return rng.chance(0.6) ? `${c.place} ${kind}` : `${c.street} Street ${kind}`;
  }
}

const POI_TAGLINES = [
  'Free and open to everyone',
  'A local favourite for a quiet moment',
  'Worth a detour on a sunny day',
  'Popular with families at weekends',
  'Best visited early in the morning',
  'Maintained by volunteers from the neighbourhood',
  'Great spot for photos at sunset',
];

const POI_SENTENCES = [
  'It is maintained by the city parks department with help from local volunteers.',
  'Benches, drinking water and a small map board can be found near the main entrance.',
  'The site is wheelchair accessible along the main paths.',
  'It gets busy on summer weekends, so arrive early for a quiet visit.',
  'Dogs are welcome on a lead, and there are bins along the paths.',
  'Local history groups run free guided walks here on the first Sunday of every month.',
  'Please take your litter home and respect the wildlife.',
];

export function poiText(
  rng: Random,
  title: string,
  c: Ctx,
  long: boolean,
): { tagline: string; description: string } {
  const first = `${title} is ${withArticle(lowerPhrase(c.kind))} in ${c.city}, close to ${c.street} Street.`;
  return {
    tagline: rng.pick(POI_TAGLINES),
    description: genericDescription(rng, first, POI_SENTENCES, long),
  };
}

// --- virtual stores --------------------------------------------------------------------------

const APP_WORDS = list('Pocket, Trail, Budget, Snap, Fresh, Pixel, Swift, Bright, Daily, Tiny, Cloud, Habit');
const APP_SUFFIXES = ['Chef', 'Mate', 'ly', 'Notes', 'Track', 'Box', 'Go', 'Planner', 'Pal', 'Hub'];

export function virtualStoreText(
  rng: Random,
  key: string,
  c: Ctx,
  long: boolean,
): { title: string; tagline: string; description: string } {
  let title: string;
  let tagline: string;
  let first: string;
  switch (key) {
    case 'application':
      title = `${rng.pick(APP_WORDS)}${rng.pick(APP_SUFFIXES)}`;
      tagline = rng.pick([
        'Free on iOS and Android',
        'The app that keeps you organised',
        'Rated 4.7 by thousands of users',
        'Now with offline mode',
      ]);
      first = `${title} is a small app made by an independent team in ${c.city}.`;
      break;
    case 'delivery_service':
      title = rng.chance(0.5) ? `${c.city} Express Delivery` : `${c.adj} ${c.noun} Couriers`;
      tagline = rng.pick([
        'Same-day delivery across the city',
        'Groceries at your door in an hour',
        'Track every parcel in real time',
      ]);
      first = `${title} delivers across ${c.city} seven days a week.`;
      break;
    case 'online_shop':
      title = rng.chance(0.5) ? `${c.noun} & Co.` : `${c.adj} ${c.noun} Shop`;
      tagline = rng.pick([
        'Free shipping on orders over $40',
        'Handmade goods, shipped worldwide',
        'Independent brands you will love',
      ]);
      first = `${title} is an online shop run by ${c.first} ${c.last} from a small studio in ${c.city}.`;
      break;
    case 'website':
      title = rng.chance(0.5) ? `${c.noun}Hub` : `The ${c.adj} ${c.noun} Journal`;
      tagline = rng.pick([
        'Stories, guides and tips',
        'Independent reviews you can trust',
        'New articles every week',
      ]);
      first = `${title} publishes guides and reviews written by people who live in ${c.city}.`;
      break;
    default:
      title = `${c.adj} ${c.noun} Online`;
      tagline = 'Online only, always open';
      first = `${title} is an online business based in ${c.city}.`;
  }
  const pool = [
    'Orders placed before 2 pm are dispatched the same day.',
    'Customer support answers by chat and email, usually within the hour.',
    'Payments are processed securely, and refunds are simple within thirty days.',
    'Sign up to the newsletter for early access to new releases and offers.',
    'Everything is designed and tested by a small team who use it every day.',
  ];
  return { title, tagline, description: genericDescription(rng, first, pool, long) };
}

// --- services ("meonmap") --------------------------------------------------------------------

const SERVICE_OFFERS: Record<string, readonly string[]> = {
  babysitting: ['Evening babysitting', 'After-school care'],
  chef_at_home: ['Private dinner for four', 'Weekly meal prep'],
  courier: ['Same-day document delivery', 'Bike courier, citywide'],
  dog_walking: ['One-hour group walk', '30-minute solo walk'],
  driver: ['Airport transfer', 'Hourly driver hire'],
  elderly_care: ['Companion visits', 'Help with shopping and errands'],
  electrician: ['Emergency call-out', 'Lighting installation'],
  gardener: ['Lawn mowing and edging', 'Seasonal garden tidy'],
  hairdresser_at_home: ['Cut and blow-dry at home', 'Bridal hair'],
  handyman: ['Flat-pack assembly', 'Small repairs, by the hour'],
  house_cleaning: ['Deep clean', 'Weekly clean, 3 hours'],
  it_support: ['Laptop tune-up', 'Home wifi setup'],
  language_teacher: ['Spanish conversation lesson', 'English for beginners'],
  laundry_service: ['Wash, dry and fold', 'Ironing service'],
  makeup_artist: ['Event makeup', 'Bridal trial'],
  massage: ['60-minute deep tissue massage', 'Sports massage'],
  moving_help: ['Two movers and a van', 'Single-item delivery'],
  music_teacher: ['Piano lesson, 45 minutes', 'Guitar for beginners'],
  nurse_at_home: ['Wound care visit', 'Post-surgery check-up'],
  personal_trainer: ['One-to-one training session', 'Outdoor bootcamp'],
  pet_sitting: ['Overnight pet sitting', 'Cat drop-in visit'],
  photographer: ['Portrait session', 'Event photography, per hour'],
  plumber: ['Leak repair', 'Boiler service'],
  tailoring: ['Trouser hemming', 'Suit alterations'],
  translator: ['Certified document translation', 'Interpreting, per hour'],
  tutoring: ['Maths tutoring, GCSE and A-level', 'SAT preparation'],
};

export function serviceText(
  rng: Random,
  category: Category,
  c: Ctx,
  long: boolean,
): { title: string; tagline: string; description: string; offer: string } {
  const kind = kindName(category);
  const offer = rng.pick(SERVICE_OFFERS[category.key] ?? [`${kind} consultation`, `${kind}, per hour`]);
  const title = rng.chance(0.5) ? `${c.first}’s ${kind}` : `${c.first} ${c.last[0]}. – ${kind}`;
  const tagline = rng.pick([
    `Available in ${c.city} and nearby`,
    'Reliable, friendly and on time',
    `${rng.int(3, 15)} years of experience`,
    'Book a call or chat right now',
    'Background-checked and insured',
  ]);
  const first = `Hi, I’m ${c.first}, and I work in ${c.city} and the surrounding area. My most popular service: ${offer.charAt(0).toLowerCase()}${offer.slice(1)}.`;
  const pool = [
    `I have been doing this for ${rng.int(3, 15)} years and have plenty of happy regulars.`,
    'I bring everything needed for the job and leave the place as I found it.',
    'Message me with what you need and I will reply with a clear price, usually within the hour.',
    'Evenings and weekends are possible on request.',
    'References are available from recent customers.',
  ];
  return { title, tagline, description: genericDescription(rng, first, pool, long), offer };
}

// --- experiences -----------------------------------------------------------------------------

export function experienceText(
  rng: Random,
  category: Category,
  c: Ctx,
  long: boolean,
): { title: string; tagline: string; description: string } {
  const kind = kindName(category);
  const title = rng.pick([
    `${c.adj} ${c.city} ${kind}`,
    `Sunset ${kind} with ${c.first}`,
    `${c.city} ${kind} Adventure`,
    `Hidden ${c.city}: ${kind}`,
    `${kind} for Beginners`,
    `${c.place} ${kind}`,
  ]);
  const tagline = rng.pick([
    `${rng.int(1, 6)} hours, small groups`,
    'Free cancellation up to 24 hours before',
    'All equipment included',
    'Perfect for families and first-timers',
    'Led by a local expert',
  ]);
  const first = `Join ${c.first}, a local guide, for ${withArticle(lowerPhrase(kind))} experience in and around ${c.city}.`;
  const pool = [
    'Groups are limited to ten people, so there is plenty of time for questions.',
    'No previous experience is needed; everything is explained at the start.',
    'Wear comfortable shoes and bring water; we take care of the rest.',
    'The meeting point is easy to reach by public transport.',
    'Experiences run in light rain; in bad weather you can move your booking or get a full refund.',
  ];
  return { title, tagline, description: genericDescription(rng, first, pool, long) };
}

// --- rentals ---------------------------------------------------------------------------------

export function rentalText(
  rng: Random,
  category: Category,
  c: Ctx,
  long: boolean,
): { title: string; tagline: string; description: string } {
  const kind = kindName(category);
  const title = rng.pick([
    `${c.adj} ${kind} for Rent`,
    `${kind} Hire ${c.city}`,
    `${c.place} ${kind} Rentals`,
    `Cozy ${kind} near ${c.street} Street`,
    `${c.first}’s ${kind} Rental`,
  ]);
  const tagline = rng.pick([
    `From $${rng.int(9, 180)} per day`,
    'Weekly and monthly discounts',
    'Instant booking, flexible pick-up',
    'Well kept and ready to go',
  ]);
  const first = `Rent ${withArticle(lowerPhrase(kind))} in ${c.city} for a day, a week or longer.`;
  const pool = [
    'Pick-up and return are flexible, including evenings and weekends.',
    'A refundable deposit is taken at pick-up and returned the same day.',
    'Everything is cleaned and checked before every rental.',
    'Delivery within the city is available for a small fee.',
    'Insurance is included in the price.',
  ];
  return { title, tagline, description: genericDescription(rng, first, pool, long) };
}

// --- help requests ---------------------------------------------------------------------------

const HELP_TITLES: Record<string, readonly string[]> = {
  jobs: [
    'Part-time barista wanted',
    'Weekend dog walker needed',
    'Looking for a reliable babysitter on Fridays',
    'Kitchen porter needed for busy restaurant',
    'Delivery rider wanted, own bike',
    'Warehouse help for two weeks',
    'Event staff needed for Saturday',
  ],
  tasks: [
    'Need help moving a sofa',
    'Assemble a wardrobe',
    'Fix a leaking kitchen tap',
    'Mount a TV on the wall',
    'Help carrying boxes to third floor',
    'Garden tidy-up before winter',
    'Pick up groceries for an elderly neighbour',
    'Paint a small bedroom',
    'Set up a new printer and wifi',
  ],
  custom: [
    'Looking for a chess partner',
    'Someone to water plants while I am away',
    'Need a ride to the airport on Sunday',
    'Help finding my lost cat',
    'Practice partner for English conversation',
  ],
};

export function helpRequestText(
  rng: Random,
  key: string,
  c: Ctx,
): { title: string; tagline: string; description: string } {
  const title = rng.pick(HELP_TITLES[key] ?? HELP_TITLES['custom'] ?? []);
  const tagline = rng.pick([
    'Paid on completion',
    'Flexible on timing',
    'Urgent, please message me',
    'Tools provided',
  ]);
  const description = `${title}. I live near ${c.street} Street in ${c.city}. ${rng.pick([
    'It should take a couple of hours at most.',
    'Happy to pay a bit more for someone who can come today.',
    'Please message me with your availability and a rough price.',
    'References appreciated but not required.',
  ])}`;
  return { title, tagline, description };
}

// --- incidents -------------------------------------------------------------------------------

const INCIDENT_TITLES: Record<string, readonly string[]> = {
  accident: [
    'Two-car collision at {Street} junction',
    'Cyclist knocked down on {Street} Street',
    'Lorry overturned near {Place}',
  ],
  injury: ['Person injured after fall on {Street} Street', 'Ambulance attending incident at {Place} station'],
  contagious_area: ['Health warning issued for {Place}', 'Area cordoned off after chemical leak'],
  crime: [
    'Bike thefts reported near {Street} Street',
    'Break-in at shop on {Street} Street',
    'Pickpockets active around {Place}',
  ],
  abuse: ['Report of abusive behaviour at {Place} park'],
  assault: ['Assault reported outside {Place} station'],
  vandalism: [
    'Graffiti on the {Street} Street underpass',
    'Bus shelter smashed on {Street} Street',
    'Cars damaged overnight near {Place}',
  ],
  outbreak: ['Norovirus cases reported at local school', 'Flu outbreak at {Place} care home'],
  natural_disaster: [
    'Flooding on {Street} Street after heavy rain',
    'Tree down across {Street} Street',
    'Landslide closes road near {Place}',
  ],
  dangerous_zone: [
    'Fallen power line on {Street} Street',
    'Gas leak: avoid {Street} Street',
    'Sinkhole opened on {Street} Street',
  ],
  custom: ['Road closed on {Street} Street', 'Loose dog reported near {Place}'],
};

export function incidentText(
  rng: Random,
  key: string,
  c: Ctx,
): { title: string; tagline: string; description: string } {
  const template = rng.pick(INCIDENT_TITLES[key] ?? INCIDENT_TITLES['custom'] ?? []);
  const title = template.replace('{Street}', c.street).replace('{Place}', c.place);
  const tagline = rng.pick([
    'Reported by a neighbour',
    'Emergency services on scene',
    'Avoid the area if you can',
    'Police informed',
  ]);
  const description = `${title}. ${rng.pick([
    'Emergency services were called and are at the scene.',
    'Please take care and follow the instructions of officials.',
    'Traffic is being diverted, expect delays.',
    'No injuries have been reported so far.',
    'If you saw what happened, please contact the local police.',
  ])}`;
  return { title, tagline, description };
}

// --- events ----------------------------------------------------------------------------------

/** An event's description, opening with its title (titles: event-content.ts). */
export function eventDescription(rng: Random, title: string, venue: string, c: Ctx, long: boolean): string {
  const first = `${title} takes place at ${venue} in ${c.city}.`;
  const pool = [
    'Doors open thirty minutes before the start.',
    'Food and drinks will be available throughout.',
    'Everyone is welcome, whether you come alone or with friends.',
    'Spaces are limited, so please book ahead.',
    'The venue is step-free and has accessible toilets.',
    `Organised by ${c.first} ${c.last} and a small team of volunteers.`,
    'Bring a friend, meet new people and have a great time.',
  ];
  return genericDescription(rng, first, pool, long);
}

// --- posts -----------------------------------------------------------------------------------

interface PostTemplate {
  title: string;
  description: string;
  placeholder: string;
}

const POSTS: Record<string, readonly PostTemplate[]> = {
  gig: [
    {
      title: 'Photographer available for events',
      description: 'Weddings, parties and corporate events around {City}. Portfolio on request, fair rates.',
      placeholder: 'gig',
    },
    {
      title: 'Need a drummer for Saturday gig',
      description:
        'Our drummer is ill. Covers set, about 90 minutes, paid. Rehearsal Friday evening near {Street} Street.',
      placeholder: 'gig',
    },
    {
      title: 'Freelance web developer',
      description:
        'I build fast, simple websites for small businesses. Happy to meet for a coffee in {City} and talk it through.',
      placeholder: 'creative',
    },
    {
      title: 'Bartender for private party',
      description:
        'Looking for an experienced bartender for a 40th birthday party, 7 pm to midnight. Cocktails a plus.',
      placeholder: 'gig',
    },
  ],
  petition: [
    {
      title: 'Save the {Place} community garden',
      description:
        'The garden is threatened by a new development. Sign to ask the council to protect it for the next generation.',
      placeholder: 'announcement',
    },
    {
      title: 'A safe crossing on {Street} Street',
      description:
        'Children cross here every day on the way to school. We are asking for a zebra crossing and a lower speed limit.',
      placeholder: 'legal',
    },
    {
      title: 'Keep the library open on Sundays',
      description: 'Sunday opening is the only time many working families can visit. Please add your name.',
      placeholder: 'announcement',
    },
    {
      title: 'More bike lanes in {City}',
      description:
        'Protected bike lanes make streets safer for everyone. Sign and share with your neighbours.',
      placeholder: 'general',
    },
  ],
  general: [
    {
      title: 'Lost: grey cat near {Street} Street',
      description:
        'Answers to Pepper, very friendly, green collar. Please check your sheds and garages. Thank you!',
      placeholder: 'general',
    },
    {
      title: 'Power cut on our block?',
      description:
        'Anyone else without power since this morning around {Street} Street? The utility line is busy.',
      placeholder: 'announcement',
    },
    {
      title: 'Welcome to the neighbourhood',
      description:
        'We just moved to {City} from abroad. Any tips for a good bakery and a friendly pub nearby?',
      placeholder: 'general',
    },
    {
      title: 'Street party planning meeting',
      description: 'Planning this year’s street party. Join us on Thursday at 7 pm in the community room.',
      placeholder: 'announcement',
    },
  ],
  recommendation: [
    {
      title: 'Best brunch in {City}?',
      description:
        'Tried the new place on {Street} Street and the pancakes were unreal. Highly recommended, go early.',
      placeholder: 'general',
    },
    {
      title: 'Great plumber, fair price',
      description: 'Fixed our boiler the same day and charged exactly what he quoted. Ask me for his number.',
      placeholder: 'services',
    },
    {
      title: 'Hidden gem: {Adj} {N} Café',
      description: 'Quiet, great coffee and the friendliest staff. Perfect for working on a laptop.',
      placeholder: 'general',
    },
    {
      title: 'Recommend a good dentist?',
      description: 'Looking for a dentist who takes new patients in {City}. Recommendations welcome.',
      placeholder: 'services',
    },
  ],
  classified: [
    {
      title: 'For sale: road bike, barely used',
      description: 'Size 56, carbon fork, new tyres. $450 or best offer. Pick-up near {Street} Street.',
      placeholder: 'deal',
    },
    {
      title: 'Room to rent in shared flat',
      description:
        'Bright double room, bills included, five minutes from the station. Available from next month.',
      placeholder: 'real-estate',
    },
    {
      title: 'Free sofa, you collect',
      description: 'Three-seater, good condition, a few marks on the arm. Must go this weekend.',
      placeholder: 'general',
    },
    {
      title: 'Selling my guitar and amp',
      description: 'Acoustic-electric guitar with a 20W amp and cables. $220 for the lot.',
      placeholder: 'deal',
    },
    {
      title: 'Accounting help for small businesses',
      description: 'Bookkeeping, VAT and year-end accounts at fixed monthly prices.',
      placeholder: 'financial',
    },
  ],
  promotion: [
    {
      title: 'Grand opening this weekend!',
      description: 'Come and celebrate with free samples, live music and 20% off everything on Saturday.',
      placeholder: 'announcement',
    },
    {
      title: 'New autumn menu is here',
      description: 'Seasonal dishes, new cocktails and our famous apple pie is back. Book a table now.',
      placeholder: 'creative',
    },
    {
      title: 'Free trial class',
      description: 'Try any class for free this month. No commitment, just bring comfortable clothes.',
      placeholder: 'general',
    },
    {
      title: 'Loyalty cards now available',
      description: 'Every tenth coffee on us. Ask at the counter next time you visit.',
      placeholder: 'announcement',
    },
  ],
  deal: [
    {
      title: '2-for-1 pizzas on Tuesdays',
      description: 'Every Tuesday, dine in or takeaway. Just mention this post.',
      placeholder: 'deal',
    },
    {
      title: '30% off all winter jackets',
      description: 'End of season sale while stocks last. In store and online.',
      placeholder: 'deal',
    },
    {
      title: 'Half-price haircut for new clients',
      description: 'Book online and use code HELLO50 at checkout. Valid until the end of the month.',
      placeholder: 'deal',
    },
    {
      title: 'Happy hour extended',
      description: 'Happy hour now runs from 4 to 8 pm, Monday to Thursday.',
      placeholder: 'deal',
    },
  ],
};

export function postText(rng: Random, category: string, c: Ctx): PostTemplate {
  const template = rng.pick(POSTS[category] ?? POSTS['general'] ?? []);
  return {
    title: fill(fill(template.title.replace('{Place}', c.place), c), c),
    description: fill(template.description.replace('{Place}', c.place), c),
    placeholder: template.placeholder,
  };
}

// --- reviews and comments --------------------------------------------------------------------

const REVIEWS: Record<number, readonly string[]> = {
  1: [
    'Really disappointing. Waited forty minutes and nobody apologised.',
    'Would not go back. Overpriced and rude staff.',
    'Not as described at all.',
  ],
  2: [
    'Okay at best. Some things were good, most were not.',
    'Expected more after all the hype.',
    'Slow service, average quality.',
  ],
  3: [
    'Decent, nothing special.',
    'Fine for a quick visit. A bit pricey for what it is.',
    'Good location, mixed experience.',
  ],
  4: [
    'Really good, will come back.',
    'Friendly staff and fair prices.',
    'Great experience overall, only small niggles.',
    'Solid choice in the area.',
  ],
  5: [
    'Absolutely loved it!',
    'The best in town, hands down.',
    'Fantastic service from start to finish.',
    'Could not recommend more highly.',
    'A real gem. Thank you!',
  ],
};

export function reviewText(rng: Random, stars: number): string | null {
  if (rng.chance(0.15)) return null;
  return rng.pick(REVIEWS[stars] ?? REVIEWS[3] ?? []);
}

/**
 * An owner's public answer to a review (Yelp's owner reply), by how the review went; `{name}` is the
 * reviewer's first name. Owners answer the unhappy ones more often (points.ts).
 */
const REVIEW_REPLIES: Record<'low' | 'middle' | 'high', readonly string[]> = {
  low: [
    "{name}, I'm sorry we let you down. This is not how we want anyone to leave. Please ask for me next time and I'll make it right.",
    'Thank you for telling us, {name}. We have talked it through with the team and changed how we handle busy days.',
    "Sorry to read this, {name}. If you send us a message with the date of your visit, we'd like to look into what happened.",
    "That's fair criticism and we've taken it on board. I hope you'll give us another chance.",
  ],
  middle: [
    'Thanks for the honest review, {name}. We are looking at our prices and hope to see you again.',
    "Thank you, {name}! Glad parts of it worked for you; we'd love to win you over completely next time.",
    "Appreciate the feedback. We were short-staffed that week, which is no excuse, but it's sorted now.",
  ],
  high: [
    'Thank you so much, {name}! It means a lot to the whole team.',
    'Thanks {name}, see you again soon!',
    "So glad you enjoyed it, {name}. Come back in the spring, we're trying something new.",
    'Thank you for the kind words! We pass every review like this on to the team.',
    'Cheers, {name}! Reviews like yours make our week.',
  ],
};

export function reviewReplyText(rng: Random, stars: number, reviewerFirstName: string): string {
  const mood = stars <= 2 ? 'low' : stars === 3 ? 'middle' : 'high';
  return rng.pick(REVIEW_REPLIES[mood]).replaceAll('{name}', reviewerFirstName);
}

export const COMMENTS = [
  'Thanks for sharing!',
  'Is this still available?',
  'Great idea, count me in.',
  'I was there last week, can confirm.',
  'Sent you a message.',
  'Signed and shared.',
  'What time does it start?',
  'Love this 😍',
  'How much for delivery?',
  'We need more of this in the neighbourhood.',
  'Same thing happened on our street.',
  'Could you post a photo?',
  'Highly recommend them too.',
  'Where exactly is this?',
  'Good luck!',
  'Thank you, very helpful.',
];

export const CONTACT_ROLE_TEXTS = [
  'Head Chef',
  'Store Manager',
  'Marketing Lead',
  'Front Desk',
  'Bookings',
  'Sommelier',
  'Head of Sales',
  'Events Coordinator',
];

export const XSITES = [
  { icon: 'instagram', title: 'Instagram', host: 'instagram.com' },
  { icon: 'twitter', title: 'X (Twitter)', host: 'x.com' },
  { icon: 'youtube', title: 'YouTube', host: 'youtube.com' },
  { icon: 'tripadvisor', title: 'Tripadvisor', host: 'tripadvisor.com' },
  { icon: 'yelp', title: 'Yelp', host: 'yelp.com' },
  { icon: 'linkedin', title: 'LinkedIn', host: 'linkedin.com/company' },
  { icon: 'tiktok', title: 'TikTok', host: 'tiktok.com/@' },
] as const;

// --- opening hours ---------------------------------------------------------------------------

/** OpenStreetMap opening_hours strings by kind; every one is checked with the opening_hours library at start. */
export const OPENING_HOURS: Readonly<Record<string, readonly string[]>> = {
  food: [
    'Mo-Su 11:00-22:00',
    'Mo-Th 11:30-22:00; Fr-Sa 11:30-23:30; Su 12:00-21:00',
    'Tu-Su 12:00-15:00,18:00-22:30; Mo off',
    'Mo-Fr 11:00-14:30,17:30-22:00; Sa-Su 12:00-22:00',
    'Mo-Su 10:00-23:00',
  ],
  cafe: [
    'Mo-Fr 07:00-18:00; Sa-Su 08:00-17:00',
    'Mo-Sa 06:30-19:00; Su 07:30-14:00',
    'Mo-Su 07:00-22:00',
    'Mo-Fr 07:30-16:00',
  ],
  drink: [
    'Mo-Th 16:00-24:00; Fr-Sa 16:00-24:00; Su 14:00-22:00',
    'We-Sa 21:00-24:00',
    'Mo-Su 12:00-24:00',
    'Tu-Su 17:00-23:30; Mo off',
  ],
  shop: [
    'Mo-Fr 09:00-19:00; Sa 09:00-17:00; Su off',
    'Mo-Sa 10:00-20:00; Su 11:00-18:00',
    'Tu-Sa 10:00-19:00; Su,Mo off',
    'Mo-Fr 08:00-18:00; Sa 09:00-14:00',
    'Mo-Su 08:00-22:00',
  ],
  office: ['Mo-Fr 08:00-18:00', 'Mo-Fr 09:00-17:30', 'Mo-Th 08:30-17:00; Fr 08:30-15:00'],
  health: [
    'Mo-Fr 08:00-18:00; Sa 09:00-14:00',
    'Mo-Fr 08:00-20:00; Sa 09:00-13:00',
    '24/7',
    'Mo-Fr 08:30-17:30',
  ],
  beauty: ['Tu-Sa 10:00-19:00; Su,Mo off', 'Mo-Sa 09:00-20:00', 'Tu-Fr 10:00-20:00; Sa 09:00-17:00'],
  lodging: ['24/7'],
  leisure: ['Mo-Fr 06:00-22:00; Sa-Su 08:00-20:00', 'Mo-Su 10:00-18:00', 'Tu-Su 10:00-17:00; Mo off'],
  auto: ['Mo-Fr 07:30-18:00; Sa 08:00-13:00', 'Mo-Su 06:00-23:00', '24/7'],
  education: ['Mo-Fr 08:00-17:00', 'Mo-Fr 09:00-21:00; Sa 10:00-14:00'],
  trade: ['Mo-Fr 07:00-17:00', 'Mo-Fr 08:00-18:00; Sa 09:00-12:00'],
  civic: ['Mo-Fr 09:00-17:00', 'Mo-Fr 08:30-16:30; Sa 09:00-12:00', '24/7'],
  poi: [
    '24/7',
    'Mo-Su 06:00-22:00',
    'Apr-Oct: Mo-Su 08:00-20:00; Nov-Mar: Mo-Su 09:00-17:00',
    'Mo-Su 07:00-21:00',
  ],
  service: [
    'Mo-Fr 08:00-18:00',
    'Mo-Sa 09:00-20:00',
    'Mo-Su 07:00-22:00',
    'Mo-Fr 17:00-21:00; Sa-Su 09:00-18:00',
  ],
  experience: [
    'Mo-Su 09:00-17:00',
    'Sa-Su 10:00-16:00',
    'Jun-Sep: Mo-Su 09:00-19:00; Oct-May: Sa-Su 10:00-16:00',
    'Tu-Su 10:00-18:00; Mo off',
  ],
  rental: ['Mo-Su 08:00-20:00', '24/7', 'Mo-Sa 09:00-18:00; Su 10:00-16:00'],
  virtualstore: ['24/7', 'Mo-Fr 09:00-17:00'],
};

/** Free text some owners type instead of opening hours; the detail panel must survive them. */
export const UNPARSEABLE_OPENING_HOURS = [
  'Call ahead',
  'Open most days, ask inside',
  'Ring the bell, we are usually here',
];
