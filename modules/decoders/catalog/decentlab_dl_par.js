// @key decentlab_dl_par
// @name Decentlab DL-PAR: photosynthetically active radiation sensor
// @devices DL-PAR
// @source Decentlab DL-PAR datasheet and uplink payload description (Decentlab protocol v2), https://www.decentlab.com/products/photosynthetically-active-radiation-sensor-for-lorawan; examples from Decentlab's codec in TheThingsNetwork/lorawan-devices vendor/decentlab
// @include decentlab
//
// Decentlab protocol v2: byte 0 is the protocol version (2), bytes 1-2 the device id, bytes 3-4 the
// sensor flags, all big endian. For each flag bit that is set, from bit 0 up, the payload carries that
// sensor's readings as big-endian unsigned 16-bit words; a clear bit means the sensor was not read in
// this uplink (battery-only uplinks, for example).
//
// Values (unit):
//   photosynthetically_active_radiation  µmol/(m²·s)
//   battery_voltage                      V

var DL_PARAMETERS = {};

var DL_SENSORS = [
  {
    length: 1,
    values: [
      ["photosynthetically_active_radiation", function (x) { return 3 * (x[0] / 32768 - 1) * 1000 * 5; }]
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
