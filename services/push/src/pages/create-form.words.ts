/**
 * The words of the password generator's passphrases (the served script and the server's
 * suggestion): 432 short, common, distinct English words, about 8.8 bits each.
 */
export const WORDS: readonly string[] = (
  'able acid aged also area army atom aunt away baby back bake ball band bank barn base bath bead ' +
  'beam bean bear beef bell belt bench bike bird bite blue boat body bold bolt bone book boot born ' +
  'boss both bowl brave bread brick brook brush bulb bunch burn bush busy cable cake calm camp ' +
  'cane cape card care cart case cash cast cave cell chair chalk chart chef chess chin city clam ' +
  'clay clip clock cloud club coal coat code coin cold comb cook cool copy cord corn cost crab ' +
  'crew crop crow cube cup curl cute dance dark dawn deal deck deep deer desk dial dice dime dish ' +
  'dock dove draw dream dress drum duck dune dusk dust eager eagle early earth east easy echo edge ' +
  'elbow elm ember empty fable face fact fair fall farm fawn feast fern field film find fire firm ' +
  'fish five flag flat flute foam fog fold food fork fort fox frog fruit fuel game gate gear gift ' +
  'glad glow goat gold golf good grain grape grass gravel green grid grin gulf gust hair half hall ' +
  'hand harp hat hawk hazel heart heat herb hero hill hint hive holly home honey hook hope horn ' +
  'horse hotel hour husky ice idea inch ink iris iron island ivory jade jam jar jazz jelly jewel ' +
  'job jolly judge juice jump kayak keen kettle key kite kiwi knee knot lake lamp land lane large ' +
  'lark lava lawn leaf lemon lens lily lime linen lion list loaf lodge logic loop lucky lunar ' +
  'lunch magic maple march marsh mask meadow melon mild mint mist moon moss moth mouse mule music ' +
  'nest net noble noon north note oak oasis ocean olive onion opal orbit otter oval owl page paint ' +
  'palm panda paper park pearl pepper piano pilot pine plum polar pond pony quail quartz queen ' +
  'quest quick quiet quilt quiz rabbit radar radio raft rain ranch raven reef relay rice ridge ' +
  'ring river road robin rock roof root rope rose ruby rug ruler saddle sage sail salad salt sand ' +
  'scarf scout seal seed shade shark shelf shell ship shore silk silver sky sled slope snow soap ' +
  'sock sofa solar song soup spark spice spoon spring square stamp star steam stone storm straw ' +
  'stream sugar summit sun swan sweet table tail tango tea tent thorn tide tiger timber toast ' +
  'topaz torch tower trail train tree tulip tuna twig umbrella uncle unit urban valley vapor vase ' +
  'velvet verse violet visit vivid voice wagon walnut wave whale wheat wheel willow wind wing ' +
  'winter wolf wool yacht yard yarn year yellow yoga zebra zero zinc zone '
)
  .split(' ')
  .filter(Boolean);
