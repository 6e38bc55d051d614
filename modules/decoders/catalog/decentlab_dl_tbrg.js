// @key decentlab_dl_tbrg
// @name Decentlab DL-TBRG: tipping bucket rain gauge
// @devices DL-TBRG
// @source Decentlab DL-TBRG datasheet and uplink payload description (Decentlab protocol v2), https://www.decentlab.com/products/tipping-bucket-rain-gauge-for-lorawan; examples from Decentlab's codec in TheThingsNetwork/lorawan-devices vendor/decentlab
// @include decentlab
//
// Decentlab protocol v2: byte 0 is the protocol version (2), bytes 1-2 the device id, bytes 3-4 the
// sensor flags, all big endian. For each flag bit that is set, from bit 0 up, the payload carries that
// sensor's readings as big-endian unsigned 16-bit words; a clear bit means the sensor was not read in
// this uplink (battery-only uplinks, for example).
//
// Values (unit):
//   precipitation             mm
//   precipitation_interval    s
//   cumulative_precipitation  mm
//   battery_voltage           V
//
// Variables (optional, per node; strings or numbers), defaults as in the vendor's decoder:
//   resolution  mm of rain per bucket tip (default 0.1)

var DL_PARAMETERS = { resolution: 0.1 };

var DL_SENSORS = [
  {
    length: 4,
    values: [
      ["precipitation", function (x, p) { return x[0] * p.resolution; }],
      ["precipitation_interval", function (x) { return x[1]; }],
      ["cumulative_precipitation", function (x, p) { return (x[2] + x[3] * 65536) * p.resolution; }]
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
