// @key decentlab_dl_dlr2_004
// @name Decentlab DL-DLR2-004: analog 4…20 mA sensor interface
// @devices DL-DLR2-004
// @source Decentlab DL-DLR2-004 datasheet and uplink payload description (Decentlab protocol v2), https://www.decentlab.com/products/analog-or-digital-sensor-device-for-lorawan; examples from Decentlab's codec in TheThingsNetwork/lorawan-devices vendor/decentlab
// @include decentlab
//
// Decentlab protocol v2: byte 0 is the protocol version (2), bytes 1-2 the device id, bytes 3-4 the
// sensor flags, all big endian. For each flag bit that is set, from bit 0 up, the payload carries that
// sensor's readings as big-endian unsigned 16-bit words; a clear bit means the sensor was not read in
// this uplink (battery-only uplinks, for example).
//
// Values (unit):
//   current          mA
//   battery_voltage  V
//
// Variables (optional, per node; strings or numbers), defaults as in the vendor's decoder:
//   R           Ω, the shunt resistor of the current input (default 10)

var DL_PARAMETERS = { R: 10 };

var DL_SENSORS = [
  {
    length: 1,
    values: [
      ["current", function (x, p) { return 3 * (x[0] - 32768) / 32768 / 2 / p.R * 1000; }]
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
