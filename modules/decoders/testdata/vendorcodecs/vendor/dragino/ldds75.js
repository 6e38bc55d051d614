// Dragino LDDS75 uplink decoder in the style of Dragino's codec for the
// first firmware (lorawan-devices vendor/dragino/ldds75.js): a 5-byte frame
// has battery, distance and the interrupt flag; any other frame has no
// sensor reading. Reduced to what the examples use.
function decodeUplink(input) {
  switch (input.fPort) {
    case 2:
      var bytes = input.bytes;
      if (bytes.length !== 5) {
        return { data: { distance: "No Sensor" } };
      }
      return {
        data: {
          Bat: (((bytes[0] << 8) | bytes[1]) & 0x3fff) / 1000,
          Distance: ((bytes[2] << 8) | bytes[3]) + " mm",
          Interrupt_flag: bytes[4],
        },
      };
    default:
      return { errors: ["unknown FPort"] };
  }
}
