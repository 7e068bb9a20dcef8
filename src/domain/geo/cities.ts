/**
 * The city an address names for a pincode, from the directory's district and state. For most
 * pincodes the district is the city ("Mumbai", "Kolkata", "Chennai"); a metro split into districts,
 * or a district named otherwise than the city people write, has its city here. Delhi's eleven
 * districts ("South East", "North West", …) are all Delhi; "New Delhi" is the one district that keeps
 * its own name.
 */
const CITY_OF_DISTRICT: Readonly<Record<string, string>> = {
  'Karnataka/Bengaluru Urban': 'Bengaluru',
  'Maharashtra/Mumbai Suburban': 'Mumbai',
  'Uttar Pradesh/Gautam Buddha Nagar': 'Noida',
  'Assam/Kamrup Metro': 'Guwahati',
  'Gujarat/Ahmadabad': 'Ahmedabad',
  'Telangana/Medchal Malkajgiri': 'Hyderabad',
  'Karnataka/Dakshina Kannada': 'Mangaluru',
};

export function cityOfPincode(entry: { district: string; state: string }): string {
  const named = CITY_OF_DISTRICT[`${entry.state}/${entry.district}`];
  if (named) return named;
  if (entry.state === 'Delhi' && entry.district !== 'New Delhi') return 'Delhi';
  return entry.district;
}
