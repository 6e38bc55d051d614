// @key decentlab_dl_lws
// @name Decentlab DL-LWS: leaf wetness sensor
// @devices DL-LWS
// @source Decentlab DL-LWS datasheet and uplink payload description (Decentlab protocol v2), https://www.decentlab.com/products/leaf-wetness-sensor-for-lorawan; examples from Decentlab's codec in TheThingsNetwork/lorawan-devices vendor/decentlab
// @include decentlab
//
// Decentlab protocol v2: byte 0 is the protocol version (2), bytes 1-2 the device id, bytes 3-4 the
// sensor flags, all big endian. For each flag bit that is set, from bit 0 up, the payload carries that
// sensor's readings as big-endian unsigned 16-bit words; a clear bit means the sensor was not read in
// this uplink (battery-only uplinks, for example).
//
// Values (unit):
//   leaf_wetness_index  -
//   battery_voltage     V

var DL_PARAMETERS = {};

var DL_SENSORS = [
  {
    length: 2,
    values: [
      ["leaf_wetness_index", function (x) { return ((x[0] + x[1] * 65536) / 8388608 - 1) * 1; }]
    ]
  },
  {
    length: 1,
    values: [
      ["battery_voltage", function (x) { return x[0] / 1000; }]
    ]
  }
];

var dlSensors = dlCompile(DL_PARAMETERS, DL_SENSORS);

function decodeUplink(input) {
  return dlDecode(input, dlSensors);
}
