/**
 * Generates src/shared/domain/categories.generated.ts: every supertype's types (map-and-search §3).
 *
 * Business and point-of-interest types are derived from the OpenStreetMap tagging presets in
 * @openstreetmap/id-tagging-schema (English names from its translations); the other supertypes are
 * hand-written lists below. Every icon must exist as an SVG in @mapbox/maki or @rapideditor/temaki;
 * the script fails loudly otherwise. Output is deterministic: re-running it yields the same file.
 *
 * Run with `npm run gen:taxonomy` (or `npx tsx scripts/gen-taxonomy.ts`).
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const SCHEMA_DIR = join(ROOT, 'node_modules/@openstreetmap/id-tagging-schema');
const MAKI_DIR = join(ROOT, 'node_modules/@mapbox/maki');
const TEMAKI_DIR = join(ROOT, 'node_modules/@rapideditor/temaki');
const OUTPUT = join(ROOT, 'src/shared/domain/categories.generated.ts');

interface Preset {
  readonly tags: Readonly<Record<string, string>>;
  readonly icon?: string;
  readonly geometry?: readonly string[];
  readonly searchable?: boolean;
}

interface Entry {
  readonly key: string;
  readonly name: string;
  readonly icon: string;
  readonly osm?: string;
  /** other words people use for the type (the preset's English terms and aliases, and EXTRA_TERMS). */
  readonly terms?: readonly string[];
  /** the preset the type was derived from (not written out). */
  readonly preset?: string;
}

/** One hand-written entry: [key, name, icon]. */
type Row = readonly [key: string, name: string, icon: string];

const SUPERTYPE_ORDER = [
  'business',
  'poi',
  'virtualstore',
  'service',
  'experience',
  'rental',
  'helprequest',
  'incident',
  'event',
] as const;
type Supertype = (typeof SUPERTYPE_ORDER)[number];

// ---------------------------------------------------------------------------------------------
// Inputs
// ---------------------------------------------------------------------------------------------

function fail(message: string): never {
  console.error(`gen-taxonomy: ${message}`);
  process.exit(1);
}

function readJson<T>(path: string): T {
  if (!existsSync(path)) fail(`missing ${path} (are dependencies installed?)`);
  return JSON.parse(readFileSync(path, 'utf8')) as T;
}

const presets = readJson<Record<string, Preset>>(join(SCHEMA_DIR, 'dist/presets.json'));
const english = readJson<{
  en: { presets: { presets: Record<string, { name?: string; terms?: string; aliases?: string }> } };
}>(join(SCHEMA_DIR, 'dist/translations/en.json')).en.presets.presets;
const versions = {
  schema: readJson<{ version: string }>(join(SCHEMA_DIR, 'package.json')).version,
  maki: readJson<{ version: string }>(join(MAKI_DIR, 'package.json')).version,
  temaki: readJson<{ version: string }>(join(TEMAKI_DIR, 'package.json')).version,
};

function iconExists(icon: string): boolean {
  const match = /^(maki|temaki)-(.+)$/.exec(icon);
  if (!match) return false;
  const dir = match[1] === 'maki' ? MAKI_DIR : TEMAKI_DIR;
  return existsSync(join(dir, 'icons', `${match[2]}.svg`));
}

function snake(value: string): string {
  return value
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
}

// ---------------------------------------------------------------------------------------------
// Business: which presets, per OSM tag key
// ---------------------------------------------------------------------------------------------

/**
 * Tag keys whose presets become business types, in priority order (an earlier key keeps a
 * contested `key`). `include` lists the tag values taken; `exclude` takes every searchable
 * single-tag point preset of that key except those values.
 */
const BUSINESS_SOURCES: readonly {
  tagKey: string;
  include?: readonly string[];
  exclude?: readonly string[];
}[] = [
  {
    tagKey: 'amenity',
    include: [
      'arts_centre',
      'bank',
      'bar',
      'biergarten',
      'bicycle_rental',
      'boat_rental',
      'bureau_de_change',
      'cafe',
      'car_rental',
      'car_wash',
      'casino',
      'childcare',
      'cinema',
      'clinic',
      'community_centre',
      'conference_centre',
      'courthouse',
      'dentist',
      'dive_centre',
      'doctors',
      'events_venue',
      'exhibition_centre',
      'fast_food',
      'fire_station',
      'food_court',
      'fuel',
      'hookah_lounge',
      'hospital',
      'ice_cream',
      'internet_cafe',
      'karaoke_box',
      'library',
      'marketplace',
      'motorcycle_rental',
      'nightclub',
      'pharmacy',
      'place_of_worship',
      'police',
      'post_office',
      'pub',
      'restaurant',
      'studio',
      'theatre',
      'townhall',
      'veterinary',
    ],
  },
  {
    tagKey: 'shop',
    exclude: [
      'agrarian',
      'anime',
      'bathroom_furnishing',
      'bbq',
      'bookmaker',
      'brewing_supplies',
      'candles',
      'carpet',
      'catalogue',
      'chocolate',
      'collector',
      'country_store',
      'curtain',
      'dairy',
      'doors',
      'e-cigarette',
      'erotic',
      'esoteric',
      'fashion_accessories',
      'fireplace',
      'flooring',
      'frame',
      'frozen_food',
      'fuel',
      'gas',
      'gold_buyer',
      'groundskeeping',
      'hairdresser_supply',
      'hearing_aids',
      'herbalist',
      'hifi',
      'honey',
      'household_linen',
      'hunting',
      'kitchen',
      'leather',
      'lighting',
      'lottery',
      'medical_supply',
      'military_surplus',
      'mobile_phone_accessories',
      'model',
      'money_lender',
      'nutrition_supplements',
      'nuts',
      'outpost',
      'pasta',
      'pawnbroker',
      'piercing',
      'pottery',
      'printer_ink',
      'psychic',
      'pyrotechnics',
      'radiotechnics',
      'religion',
      'rice',
      'scuba_diving',
      'sewing',
      'spices',
      'swimming_pool',
      'tiles',
      'trade',
      'trophy',
      'vacant',
      'vacuum_cleaner',
      'video',
      'water',
      'water_sports',
      'weapons',
      'wigs',
      'window_blind',
    ],
  },
  {
    tagKey: 'education',
    include: [
      'college',
      'dancing_school',
      'driving_school',
      'kindergarten',
      'language_school',
      'music_school',
      'prep_school',
      'school',
      'university',
    ],
  },
  {
    tagKey: 'tourism',
    include: [
      'apartment',
      'aquarium',
      'caravan_site',
      'chalet',
      'gallery',
      'guest_house',
      'hostel',
      'hotel',
      'motel',
      'museum',
      'theme_park',
      'zoo',
    ],
  },
  {
    tagKey: 'leisure',
    include: [
      'amusement_arcade',
      'beach_resort',
      'bowling_alley',
      'dance',
      'escape_game',
      'fitness_centre',
      'golf_course',
      'horse_riding',
      'ice_rink',
      'indoor_play',
      'miniature_golf',
      'resort',
      'sauna',
      'sports_centre',
      'stadium',
      'trampoline_park',
      'water_park',
    ],
  },
  {
    tagKey: 'healthcare',
    include: [
      'alternative',
      'audiologist',
      'blood_donation',
      'counselling',
      'laboratory',
      'optometrist',
      'physiotherapist',
      'podiatrist',
      'psychotherapist',
      'speech_therapist',
    ],
  },
  {
    tagKey: 'craft',
    include: [
      'brewery',
      'carpenter',
      'caterer',
      'cleaning',
      'distillery',
      'electrician',
      'gardener',
      'hvac',
      'painter',
      'photographer',
      'plumber',
      'roofer',
      'upholsterer',
      'winery',
    ],
  },
  {
    tagKey: 'office',
    include: [
      'accountant',
      'advertising_agency',
      'architect',
      'consulting',
      'coworking',
      'employment_agency',
      'estate_agent',
      'financial_advisor',
      'graphic_design',
      'insurance',
      'it',
      'lawyer',
      'moving_company',
      'notary',
      'tax_advisor',
      'translator',
    ],
  },
];

/** Presets with a second tag whose meaning is clear, taken as business types under their own key. */
const BUSINESS_EXTRA_PRESETS: Readonly<Record<string, string>> = {
  'shop/beauty/nails': 'nail_salon',
  'shop/hairdresser/barber': 'barber',
};

/** Keys that differ from the tag value (the spec names `gym`). */
const KEY_OVERRIDES: Readonly<Record<string, string>> = {
  'leisure/fitness_centre': 'gym',
  'tourism/camp_site': 'campsite',
  'landuse/harbour': 'harbor',
};

/** Names that read badly out of context ("Pharmacy Counter"); " Grounds" is dropped everywhere. */
const NAME_OVERRIDES: Readonly<Record<string, string>> = {
  'amenity/pharmacy': 'Pharmacy',
};

/** Icons for presets whose own icon is not a maki/temaki SVG (Font Awesome, Röntgen, …). */
const ICON_OVERRIDES: Readonly<Record<string, string>> = {
  'amenity/biergarten': 'maki-beer',
  'amenity/conference_centre': 'temaki-briefcase',
  'amenity/courthouse': 'temaki-courthouse',
  'amenity/events_venue': 'maki-town-hall',
  'amenity/exhibition_centre': 'maki-town-hall',
  'amenity/food_court': 'maki-restaurant',
  'amenity/hookah_lounge': 'maki-bar',
  'amenity/ice_cream': 'maki-ice-cream',
  'amenity/marketplace': 'maki-shop',
  'amenity/nightclub': 'maki-nightclub',
  'amenity/childcare': 'maki-playground',
  'amenity/studio': 'temaki-speaker',
  'craft/carpenter': 'temaki-tools',
  'craft/painter': 'maki-paint',
  'craft/photographer': 'temaki-portrait',
  'craft/roofer': 'temaki-tools',
  'craft/upholsterer': 'maki-furniture',
  'education/dancing_school': 'maki-music',
  'education/music_school': 'maki-music',
  'healthcare/alternative': 'temaki-spa',
  'healthcare/counselling': 'maki-doctor',
  'healthcare/laboratory': 'maki-hospital',
  'healthcare/optometrist': 'maki-optician',
  'healthcare/speech_therapist': 'maki-doctor',
  'leisure/beach_resort': 'maki-beach',
  'leisure/dance': 'maki-music',
  'leisure/escape_game': 'temaki-maze',
  'leisure/fitness_centre': 'maki-fitness-centre',
  'leisure/ice_rink': 'temaki-ice_skating',
  'leisure/sauna': 'temaki-spa',
  'leisure/stadium': 'maki-stadium',
  'leisure/trampoline_park': 'temaki-trampoline',
  'leisure/water_park': 'maki-swimming',
  'office/architect': 'temaki-briefcase',
  'office/coworking': 'temaki-briefcase',
  'office/lawyer': 'temaki-lawyer',
  'office/moving_company': 'temaki-truck',
  'office/notary': 'temaki-stamp',
  'office/translator': 'maki-globe',
  'shop/alcohol': 'maki-alcohol-shop',
  'shop/baby_goods': 'maki-shop',
  'shop/bag': 'temaki-handbag',
  'shop/books': 'temaki-book_store',
  'shop/camera': 'maki-attraction',
  'shop/cannabis': 'temaki-plant',
  'shop/car_parts': 'maki-car-repair',
  'shop/cheese': 'maki-grocery',
  'shop/chemist': 'temaki-pharmacy',
  'shop/clothes': 'maki-clothing-store',
  'shop/computer': 'temaki-electronic',
  'shop/convenience': 'maki-convenience',
  'shop/copyshop': 'maki-shop',
  'shop/craft': 'maki-art-gallery',
  'shop/deli': 'temaki-meat',
  'shop/electronics': 'temaki-electronic',
  'shop/farm': 'maki-farm',
  'shop/furniture': 'maki-furniture',
  'shop/games': 'temaki-dice',
  'shop/greengrocer': 'maki-grocery',
  'shop/houseware': 'temaki-kitchen_sink',
  'shop/kiosk': 'maki-convenience',
  'shop/locksmith': 'temaki-lock',
  'shop/mobile_phone': 'maki-mobile-phone',
  'shop/motorcycle': 'temaki-motorcycle',
  'shop/music': 'maki-music',
  'shop/musical_instrument': 'maki-music',
  'shop/newsagent': 'temaki-vending_newspaper',
  'shop/paint': 'maki-paint',
  'shop/pet': 'temaki-pet_store',
  'shop/photo': 'maki-attraction',
  'shop/repair': 'temaki-tools',
  'shop/rental': 'temaki-storage_rental',
  'shop/second_hand': 'maki-shop',
  'shop/sports': 'maki-soccer',
  'shop/stationery': 'maki-shop',
  'shop/ticket': 'temaki-ticket',
  'shop/toys': 'maki-playground',
  'shop/travel_agency': 'temaki-suitcase',
  'tourism/hotel': 'maki-lodging',
};

/** Fallback icons per OSM tag key, then per supertype. */
const TAG_KEY_ICONS: Readonly<Record<string, string>> = {
  amenity: 'maki-marker',
  craft: 'temaki-tools',
  education: 'maki-school',
  healthcare: 'maki-doctor',
  leisure: 'maki-pitch',
  office: 'temaki-briefcase',
  shop: 'maki-shop',
  tourism: 'maki-attraction',
};
const GENERIC_ICONS: Readonly<Record<Supertype, string>> = {
  business: 'maki-shop',
  poi: 'maki-marker',
  virtualstore: 'maki-globe',
  service: 'temaki-briefcase',
  experience: 'maki-star',
  rental: 'maki-car-rental',
  helprequest: 'temaki-hand',
  incident: 'maki-caution',
  event: 'maki-theatre',
};

// ---------------------------------------------------------------------------------------------
// Points of interest: explicit presets (id -> key comes from the tag value unless overridden)
// ---------------------------------------------------------------------------------------------

const POI_PRESETS: readonly string[] = [
  'amenity/atm',
  'amenity/bbq',
  'amenity/bench',
  'amenity/bicycle_parking',
  'amenity/charging_station',
  'amenity/drinking_water',
  'amenity/fountain',
  'amenity/parking',
  'amenity/public_bookcase',
  'amenity/shelter',
  'amenity/toilets',
  'historic/archaeological_site',
  'historic/castle',
  'historic/memorial',
  'historic/monument',
  'historic/ruins',
  'landuse/cemetery',
  'landuse/harbour',
  'leisure/dog_park',
  'leisure/firepit',
  'leisure/fitness_station',
  'leisure/garden',
  'leisure/marina',
  'leisure/nature_reserve',
  'leisure/park',
  'leisure/picnic_table',
  'leisure/pitch',
  'leisure/playground',
  'man_made/lighthouse',
  'man_made/pier',
  'natural/beach',
  'natural/cave_entrance',
  'natural/hot_spring',
  'natural/peak',
  'natural/spring',
  'natural/volcano',
  'place/square',
  'tourism/artwork',
  'tourism/attraction',
  'tourism/camp_site',
  'tourism/information',
  'tourism/picnic_site',
  'tourism/viewpoint',
  'waterway/waterfall',
];

const POI_ICON_OVERRIDES: Readonly<Record<string, string>> = {
  'amenity/charging_station': 'maki-charging-station',
  'historic/castle': 'maki-castle',
  'leisure/firepit': 'temaki-campfire',
  'leisure/park': 'maki-park',
  'man_made/pier': 'temaki-pier_fixed',
  'natural/cave_entrance': 'maki-triangle',
  'place/square': 'maki-square-stroked',
  'waterway/waterfall': 'maki-waterfall',
};

// ---------------------------------------------------------------------------------------------
// Hand-written supertypes
// ---------------------------------------------------------------------------------------------

/** Event types: exactly the spec's list, in its order. */
const EVENT_ROWS: readonly Row[] = [
  ['art', 'Art', 'maki-art-gallery'],
  ['band_performance', 'Band Performance', 'maki-music'],
  ['business', 'Business', 'maki-suitcase'],
  ['causes', 'Causes', 'temaki-hand'],
  ['childrens', "Children's", 'maki-playground'],
  ['comedy', 'Comedy', 'maki-theatre'],
  ['concert', 'Concert', 'maki-music'],
  ['crafts', 'Crafts', 'temaki-vase'],
  ['dance', 'Dance', 'maki-nightclub'],
  ['drinks', 'Drinks', 'maki-bar'],
  ['education', 'Education', 'maki-school'],
  ['exhibition', 'Exhibition', 'maki-museum'],
  ['farmers_market', "Farmers' Market", 'maki-farm'],
  ['film', 'Film', 'maki-cinema'],
  ['fitness', 'Fitness', 'maki-fitness-centre'],
  ['food', 'Food', 'maki-restaurant'],
  ['fundraising_auction', 'Fundraising Auction', 'temaki-money_hand'],
  ['fundraising_dinner_party', 'Fundraising Dinner Party', 'temaki-catering'],
  ['games', 'Games', 'temaki-dice'],
  ['garage_sale', 'Garage Sale', 'maki-shop'],
  ['gardening', 'Gardening', 'maki-garden'],
  ['gay_parade', 'Gay Parade', 'maki-heart'],
  ['hackathon', 'Hackathon', 'temaki-electronic'],
  ['health', 'Health', 'maki-hospital'],
  ['home', 'Home', 'maki-home'],
  ['literature', 'Literature', 'maki-library'],
  ['local_sport_competition', 'Local Sport Competition', 'maki-stadium'],
  ['masquerade', 'Masquerade', 'maki-theatre'],
  ['music', 'Music', 'maki-music'],
  ['networking', 'Networking', 'temaki-briefcase'],
  ['open_house', 'Open House', 'temaki-real_estate_agency'],
  ['party', 'Party', 'temaki-balloon'],
  ['religion', 'Religion', 'maki-place-of-worship'],
  ['shopping', 'Shopping', 'temaki-shopping_mall'],
  ['speed_dating', 'Speed Dating', 'maki-heart'],
  ['sports', 'Sports', 'maki-pitch'],
  ['theatre', 'Theatre', 'maki-theatre'],
  ['wellness', 'Wellness', 'temaki-spa'],
  ['wine_tasting', 'Wine Tasting', 'temaki-grapes'],
  ['custom', 'Other event', 'maki-star'],
];

const HELPREQUEST_ROWS: readonly Row[] = [
  ['jobs', 'Jobs', 'temaki-briefcase'],
  ['tasks', 'Tasks', 'temaki-toolbox'],
  ['custom', 'Other request', 'temaki-hand'],
];

const INCIDENT_ROWS: readonly Row[] = [
  ['accident', 'Accident', 'maki-road-accident'],
  ['injury', 'Injury', 'maki-doctor'],
  ['contagious_area', 'Contagious Area', 'temaki-radiation'],
  ['crime', 'Crime', 'maki-police'],
  ['abuse', 'Abuse', 'temaki-shield'],
  ['assault', 'Assault', 'temaki-police_officer'],
  ['vandalism', 'Vandalism', 'maki-roadblock'],
  ['outbreak', 'Outbreak', 'maki-hospital'],
  ['natural_disaster', 'Natural Disaster', 'maki-volcano'],
  ['dangerous_zone', 'Dangerous Zone', 'maki-danger'],
  ['custom', 'Other incident', 'maki-caution'],
];

const VIRTUALSTORE_ROWS: readonly Row[] = [
  ['application', 'Application', 'maki-mobile-phone'],
  ['delivery_service', 'Delivery Service', 'temaki-truck'],
  ['online_shop', 'Online Shop', 'maki-shop'],
  ['website', 'Website', 'maki-globe'],
  ['custom_vs', 'Other virtual store', 'maki-star'],
];

const SERVICE_ROWS: readonly Row[] = [
  ['babysitting', 'Babysitting', 'maki-playground'],
  ['chef_at_home', 'Chef at Home', 'temaki-chefs_knife'],
  ['courier', 'Courier', 'maki-bicycle'],
  ['dog_walking', 'Dog Walking', 'maki-dog-park'],
  ['driver', 'Driver', 'maki-car'],
  ['elderly_care', 'Elderly Care', 'temaki-social_facility'],
  ['electrician', 'Electrician', 'temaki-power'],
  ['gardener', 'Gardener', 'maki-garden'],
  ['hairdresser_at_home', 'Hairdresser at Home', 'maki-hairdresser'],
  ['handyman', 'Handyman', 'temaki-tools'],
  ['house_cleaning', 'House Cleaning', 'temaki-vacuum'],
  ['it_support', 'IT Support', 'temaki-electronic'],
  ['language_teacher', 'Language Teacher', 'maki-college'],
  ['laundry_service', 'Laundry Service', 'maki-laundry'],
  ['makeup_artist', 'Makeup Artist', 'temaki-lipstick'],
  ['massage', 'Massage', 'temaki-spa'],
  ['moving_help', 'Moving Help', 'temaki-truck'],
  ['music_teacher', 'Music Teacher', 'maki-music'],
  ['nurse_at_home', 'Nurse at Home', 'maki-doctor'],
  ['personal_trainer', 'Personal Trainer', 'maki-fitness-centre'],
  ['pet_sitting', 'Pet Sitting', 'maki-veterinary'],
  ['photographer', 'Photographer', 'temaki-portrait'],
  ['plumber', 'Plumber', 'temaki-plumber'],
  ['tailoring', 'Tailoring', 'temaki-needle_and_spool'],
  ['translator', 'Translator', 'maki-globe'],
  ['tutoring', 'Tutoring', 'maki-school'],
  ['custom', 'Other service', 'temaki-briefcase'],
];

const EXPERIENCE_ROWS: readonly Row[] = [
  ['art_workshop', 'Art Workshop', 'maki-art-gallery'],
  ['bike_tour', 'Bike Tour', 'maki-bicycle'],
  ['boat_trip', 'Boat Trip', 'temaki-boat_tour'],
  ['city_tour', 'City Tour', 'maki-city'],
  ['cooking_class', 'Cooking Class', 'temaki-chefs_knife'],
  ['escape_room', 'Escape Room', 'temaki-maze'],
  ['food_tour', 'Food Tour', 'maki-restaurant'],
  ['hiking', 'Hiking', 'maki-mountain'],
  ['horse_riding', 'Horse Riding', 'maki-horse-riding'],
  ['hot_air_balloon', 'Hot Air Balloon', 'temaki-balloon'],
  ['kayaking', 'Kayaking', 'temaki-kayaking'],
  ['museum_tour', 'Museum Tour', 'maki-museum'],
  ['nightlife_tour', 'Nightlife Tour', 'maki-nightclub'],
  ['paragliding', 'Paragliding', 'temaki-hang_gliding'],
  ['photography_walk', 'Photography Walk', 'maki-attraction'],
  ['scuba_diving', 'Scuba Diving', 'temaki-scuba_diving'],
  ['ski_lesson', 'Ski Lesson', 'maki-skiing'],
  ['surf_lesson', 'Surf Lesson', 'temaki-surfing'],
  ['whale_watching', 'Whale Watching', 'temaki-whale_watching'],
  ['wine_tasting_experience', 'Wine Tasting', 'temaki-grapes'],
  ['yoga_retreat', 'Yoga Retreat', 'temaki-spa'],
  ['zip_line', 'Zip Line', 'temaki-zip_wire'],
  ['custom', 'Other experience', 'maki-star'],
];

const RENTAL_ROWS: readonly Row[] = [
  ['apartment', 'Apartment', 'maki-lodging'],
  ['bike', 'Bike', 'temaki-bicycle_rental'],
  ['boat', 'Boat', 'temaki-boat_rental'],
  ['camera', 'Camera', 'maki-attraction'],
  ['camping_gear', 'Camping Gear', 'maki-campsite'],
  ['car', 'Car', 'maki-car-rental'],
  ['costume', 'Costume', 'temaki-gown'],
  ['e_bike', 'E-Bike', 'maki-bicycle-share'],
  ['event_venue', 'Event Venue', 'maki-town-hall'],
  ['house', 'House', 'maki-home'],
  ['kayak', 'Kayak', 'temaki-canoe'],
  ['motorcycle', 'Motorcycle', 'temaki-motorcycle_rental'],
  ['office_space', 'Office Space', 'temaki-briefcase'],
  ['parking_space', 'Parking Space', 'temaki-parking_space'],
  ['party_equipment', 'Party Equipment', 'temaki-balloon'],
  ['room', 'Room', 'temaki-room'],
  ['scooter', 'Scooter', 'maki-scooter'],
  ['ski_equipment', 'Ski Equipment', 'maki-skiing'],
  ['storage_space', 'Storage Space', 'temaki-storage_rental'],
  ['tools', 'Tools', 'temaki-tools'],
  ['vacation_home', 'Vacation Home', 'temaki-cabin'],
  ['custom', 'Other rental', 'maki-car-rental'],
];

// ---------------------------------------------------------------------------------------------
// Terms: the other words people use for a type (issue 21: "coffee" finds cafés, "drugstore" pharmacies)
// ---------------------------------------------------------------------------------------------

/**
 * At most this many terms per type. The search index keeps every word of a document's type with the
 * document (search/doc.ts typeWords), so a long list costs memory on every place of that type.
 */
const MAX_TERMS = 20;

/** Hand-written types that mean what an OpenStreetMap preset means borrow its terms and aliases. */
const ROW_PRESETS: Readonly<Record<string, string>> = {
  'experience/escape_room': 'leisure/escape_game',
  'experience/horse_riding': 'leisure/horse_riding',
  'rental/bike': 'amenity/bicycle_rental',
  'rental/boat': 'amenity/boat_rental',
  'rental/car': 'amenity/car_rental',
  'rental/motorcycle': 'amenity/motorcycle_rental',
  'rental/vacation_home': 'tourism/chalet',
  'service/electrician': 'craft/electrician',
  'service/gardener': 'craft/gardener',
  'service/photographer': 'craft/photographer',
  'service/plumber': 'craft/plumber',
  'service/translator': 'office/translator',
};

/**
 * Everyday words the presets lack, by supertype/key: the phrases people type into a map's search box
 * ("coffee shop" is not among the café preset's terms). Listed before the preset's own terms, so the
 * MAX_TERMS cut never drops them.
 */
const EXTRA_TERMS: Readonly<Record<string, readonly string[]>> = {
  'business/bicycle_rental': ['bike rental', 'bike hire', 'cycle hire'],
  'business/cafe': ['coffee shop', 'coffee house', 'coffeehouse', 'café'],
  'business/car_rental': ['car hire'],
  'business/convenience': ['grocery', 'deli'],
  'business/fuel': ['gas', 'petrol station', 'filling station'],
  'business/gym': ['fitness', 'workout'],
  'business/hairdresser': ['barber', 'hair'],
  'business/motel': ['hotel'],
  'business/supermarket': ['groceries', 'grocer'],
  'poi/atm': ['cashpoint', 'bank machine'],
  'poi/toilets': ['restroom', 'bathroom', 'washroom', 'wc'],
  'rental/apartment': ['flat', 'condo', 'vacation rental'],
  'rental/bike': ['bicycle', 'bike hire', 'cycle'],
  'rental/car': ['car hire', 'vehicle'],
  'rental/e_bike': ['electric bike', 'ebike', 'bicycle', 'bike'],
  'rental/kayak': ['canoe', 'paddle'],
  'rental/scooter': ['moped', 'e scooter'],
  'service/babysitting': ['babysitter', 'nanny', 'childcare'],
  'service/dog_walking': ['dog walker', 'pet'],
  'service/handyman': ['repairs', 'odd jobs'],
  'service/house_cleaning': ['cleaner', 'maid', 'housekeeping'],
  'service/tutoring': ['tutor', 'homework'],
};

/**
 * Preset terms left out of a type: words that name another, closer type and would bury it ("coffee"
 * and "bar" are among the restaurant preset's terms; a search for them should list cafés and bars),
 * and words too general to mean the type.
 */
const DROPPED_TERMS: Readonly<Record<string, readonly string[]>> = {
  'business/restaurant': ['bar', 'cafe', 'café', 'coffee'],
  // every shop would be found by the words that name all of them
  'business/supermarket': ['shop', 'store'],
};

/** A preset's English terms and aliases, as the translation lists them. */
function presetTerms(id: string): string[] {
  const entry = english[id];
  if (!entry) fail(`preset ${id} has no English translation`);
  const aliases = (entry.aliases ?? '').split('\n');
  const terms = (entry.terms ?? '').split(',');
  return [...aliases, ...terms];
}

/** The terms of a type: extra words first, then the preset's aliases and terms; none repeats the name. */
function termsOf(where: string, name: string, presetId: string | undefined): string[] | undefined {
  const dropped = new Set(DROPPED_TERMS[where] ?? []);
  const own = name.toLowerCase();
  const out: string[] = [];
  for (const raw of [...(EXTRA_TERMS[where] ?? []), ...(presetId ? presetTerms(presetId) : [])]) {
    const term = raw.trim().toLowerCase();
    if (term === '' || term === own || dropped.has(term) || out.includes(term)) continue;
    out.push(term);
  }
  return out.length === 0 ? undefined : out.slice(0, MAX_TERMS);
}

// ---------------------------------------------------------------------------------------------
// Build
// ---------------------------------------------------------------------------------------------

/** Preset ids whose override was applied; every override must be, or the lists have gone stale. */
const usedOverrides = new Set<string>();

function presetName(id: string): string {
  if (NAME_OVERRIDES[id]) usedOverrides.add(id);
  const override = NAME_OVERRIDES[id];
  if (override) return override;
  const name = english[id]?.name;
  if (!name) fail(`preset ${id} has no English name`);
  return name.replace(/ Grounds$/, '');
}

function presetIcon(
  id: string,
  preset: Preset,
  overrides: Readonly<Record<string, string>>,
  supertype: Supertype,
) {
  const override = overrides[id];
  if (override) {
    usedOverrides.add(id);
    return override;
  }
  if (preset.icon && iconExists(preset.icon)) return preset.icon;
  const tagKey = Object.keys(preset.tags)[0] ?? '';
  return TAG_KEY_ICONS[tagKey] ?? GENERIC_ICONS[supertype];
}

function osmTag(preset: Preset): string {
  return Object.entries(preset.tags)
    .map(([k, v]) => `${k}=${v}`)
    .join(' + ');
}

function requirePreset(id: string): Preset {
  const preset = presets[id];
  if (!preset) fail(`preset ${id} not found in @openstreetmap/id-tagging-schema ${versions.schema}`);
  if (preset.searchable === false) fail(`preset ${id} is not searchable`);
  return preset;
}

/** A searchable preset tagged with exactly one concrete key=value, usable as a point. */
function isSimplePointPreset(preset: Preset): boolean {
  const tags = Object.entries(preset.tags);
  return (
    preset.searchable !== false &&
    tags.length === 1 &&
    tags[0]?.[1] !== '*' &&
    (preset.geometry ?? []).includes('point')
  );
}

/** Presets whose single tag is `tagKey=<value>`, as value -> preset id (sorted by id). */
function presetsByValue(tagKey: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const id of Object.keys(presets).sort()) {
    const preset = presets[id];
    if (!preset || !isSimplePointPreset(preset)) continue;
    const value = preset.tags[tagKey];
    if (value === undefined || out.has(value)) continue;
    out.set(value, id);
  }
  return out;
}

function buildBusiness(): Entry[] {
  const chosen: { id: string; key: string }[] = [];
  for (const source of BUSINESS_SOURCES) {
    const byValue = presetsByValue(source.tagKey);
    let ids: string[];
    if (source.include) {
      ids = source.include.map((value) => {
        const id = byValue.get(value);
        if (!id) fail(`no searchable single-tag preset for ${source.tagKey}=${value}`);
        return id;
      });
    } else {
      const excluded = new Set(source.exclude ?? []);
      for (const value of excluded) {
        if (!byValue.has(value)) fail(`exclusion ${source.tagKey}=${value} matches no preset (stale list?)`);
      }
      ids = [...byValue.entries()].filter(([value]) => !excluded.has(value)).map(([, id]) => id);
    }
    for (const id of [...ids].sort()) {
      const preset = requirePreset(id);
      const value = preset.tags[source.tagKey] ?? '';
      if (KEY_OVERRIDES[id]) usedOverrides.add(id);
      chosen.push({ id, key: KEY_OVERRIDES[id] ?? snake(value) });
    }
  }
  for (const id of Object.keys(BUSINESS_EXTRA_PRESETS).sort()) {
    requirePreset(id);
    chosen.push({ id, key: BUSINESS_EXTRA_PRESETS[id] ?? '' });
  }

  const used = new Set<string>(['custom']);
  const entries: Entry[] = [];
  for (const { id, key: wanted } of chosen) {
    const preset = requirePreset(id);
    let key = wanted;
    if (used.has(key)) {
      // Deterministic clash rule: the later source gets `<value>_<tagkey>`.
      key = snake(`${wanted}_${Object.keys(preset.tags)[0] ?? ''}`);
      console.warn(`gen-taxonomy: business key clash for ${id}; using "${key}"`);
      if (used.has(key)) fail(`business key ${key} is still taken (from ${id})`);
    }
    used.add(key);
    entries.push({
      key,
      name: presetName(id),
      icon: presetIcon(id, preset, ICON_OVERRIDES, 'business'),
      osm: osmTag(preset),
      preset: id,
    });
  }
  entries.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  entries.push({ key: 'custom', name: 'Other business', icon: GENERIC_ICONS.business });
  return entries;
}

function buildPoi(): Entry[] {
  const entries: Entry[] = [];
  for (const id of [...POI_PRESETS].sort()) {
    const preset = requirePreset(id);
    const tags = Object.values(preset.tags);
    if (tags.length !== 1) fail(`POI preset ${id} has more than one tag`);
    if (KEY_OVERRIDES[id]) usedOverrides.add(id);
    entries.push({
      key: KEY_OVERRIDES[id] ?? snake(tags[0] ?? ''),
      name: presetName(id),
      icon: presetIcon(id, preset, POI_ICON_OVERRIDES, 'poi'),
      osm: osmTag(preset),
      preset: id,
    });
  }
  entries.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  entries.push({ key: 'custom_poi', name: 'Other place', icon: GENERIC_ICONS.poi });
  return entries;
}

function fromRows(rows: readonly Row[]): Entry[] {
  return rows.map(([key, name, icon]) => ({ key, name, icon }));
}

const built: Record<Supertype, Entry[]> = {
  business: buildBusiness(),
  poi: buildPoi(),
  virtualstore: fromRows(VIRTUALSTORE_ROWS),
  service: fromRows(SERVICE_ROWS),
  experience: fromRows(EXPERIENCE_ROWS),
  rental: fromRows(RENTAL_ROWS),
  helprequest: fromRows(HELPREQUEST_ROWS),
  incident: fromRows(INCIDENT_ROWS),
  event: fromRows(EVENT_ROWS),
};

/** Every type with its terms (supertype/key names the hand-written lists above). */
const taxonomy = {} as Record<Supertype, Entry[]>;
const termKeys = new Set<string>();
for (const supertype of SUPERTYPE_ORDER) {
  taxonomy[supertype] = built[supertype].map((entry) => {
    const where = `${supertype}/${entry.key}`;
    termKeys.add(where);
    const borrowed = ROW_PRESETS[where];
    if (borrowed) requirePreset(borrowed);
    const terms = termsOf(where, entry.name, entry.preset ?? borrowed);
    return terms ? { ...entry, terms } : entry;
  });
}

// ---------------------------------------------------------------------------------------------
// Validate
// ---------------------------------------------------------------------------------------------

const problems: string[] = [];
for (const supertype of SUPERTYPE_ORDER) {
  const keys = new Set<string>();
  for (const entry of taxonomy[supertype]) {
    const where = `${supertype}/${entry.key}`;
    if (!/^[a-z0-9_]+$/.test(entry.key)) problems.push(`${where}: key is not snake_case`);
    if (keys.has(entry.key)) problems.push(`${where}: duplicate key`);
    keys.add(entry.key);
    if (!entry.name.trim()) problems.push(`${where}: empty name`);
    if (!iconExists(entry.icon)) problems.push(`${where}: icon ${entry.icon} has no SVG in maki or temaki`);
  }
}
const overrideIds = [
  ...Object.keys(KEY_OVERRIDES),
  ...Object.keys(NAME_OVERRIDES),
  ...Object.keys(ICON_OVERRIDES),
  ...Object.keys(POI_ICON_OVERRIDES),
];
for (const id of overrideIds.sort()) {
  if (!usedOverrides.has(id)) problems.push(`override for ${id} applies to no chosen preset (stale list?)`);
}
for (const where of [
  ...Object.keys(ROW_PRESETS),
  ...Object.keys(EXTRA_TERMS),
  ...Object.keys(DROPPED_TERMS),
]) {
  if (!termKeys.has(where)) problems.push(`terms for ${where} apply to no type (stale list?)`);
}
if (problems.length > 0) fail(`invalid taxonomy:\n  ${problems.join('\n  ')}`);

// ---------------------------------------------------------------------------------------------
// Write
// ---------------------------------------------------------------------------------------------

/** A string literal: single quotes unless the text has an apostrophe (as prettier would write it). */
function quote(value: string): string {
  const escaped = value.replace(/\\/g, '\\\\');
  if (value.includes("'") && !value.includes('"')) return `"${escaped}"`;
  return `'${escaped.replace(/'/g, "\\'")}'`;
}

function line(entry: Entry): string {
  const osm = entry.osm === undefined ? '' : `, osm: ${quote(entry.osm)}`;
  const terms = entry.terms === undefined ? '' : `, terms: [${entry.terms.map(quote).join(', ')}]`;
  return `    { key: ${quote(entry.key)}, name: ${quote(entry.name)}, icon: ${quote(entry.icon)}${osm}${terms} },`;
}

const out: string[] = [
  '// GENERATED by scripts/gen-taxonomy.ts (`npm run gen:taxonomy`). Do not edit by hand: change the script and re-run it.',
  `// Sources: @openstreetmap/id-tagging-schema ${versions.schema}, @mapbox/maki ${versions.maki}, @rapideditor/temaki ${versions.temaki}.`,
  "import type { Category, CategorySupertype } from './categories';",
  '',
  'export const GENERATED_CATEGORIES: Readonly<Record<CategorySupertype, readonly Category[]>> = {',
];
for (const supertype of SUPERTYPE_ORDER) {
  out.push(`  ${supertype}: [`);
  for (const entry of taxonomy[supertype]) out.push(line(entry));
  out.push('  ],');
}
out.push('};', '');

writeFileSync(OUTPUT, out.join('\n'));
const counts = SUPERTYPE_ORDER.map((s) => `${s} ${taxonomy[s].length}`).join(', ');
console.log(`gen-taxonomy: wrote ${OUTPUT.slice(ROOT.length + 1)} (${counts})`);
