package tsdb

import "math"

// LTTB returns exactly n of points (sorted by time, numbers) when there are
// more than n, chosen by Sveinn Steinarsson's Largest Triangle Three Buckets:
// the first and the last point, and from each of n-2 buckets of equal point
// count the point that spans the largest triangle with the point chosen
// before it and the average of the next bucket. Two changes to the published
// method make peaks certain rather than likely: a bucket that holds the
// overall maximum or minimum takes that point (the larger triangle decides
// when one bucket holds both). With n == 1 it returns the last point, with
// n == 2 the first and last. It returns points itself when len(points) <= n.
func LTTB(points []Point, n int) []Point {
	size := len(points)
	if n <= 0 || size <= n {
		return points
	}
	if n == 1 {
		return []Point{points[size-1]}
	}
	if n == 2 {
		return []Point{points[0], points[size-1]}
	}
	imin, imax := 0, 0
	for i, p := range points {
		if p.Value < points[imin].Value {
			imin = i
		}
		if p.Value > points[imax].Value {
			imax = i
		}
	}
	t0 := Micros(points[0].Time)
	x := func(i int) float64 { return float64(Micros(points[i].Time) - t0) }

	out := make([]Point, 0, n)
	out = append(out, points[0])
	every := float64(size-2) / float64(n-2)
	a := 0
	for i := 0; i < n-2; i++ {
		// The average of the next bucket (the last point for the last one).
		avgStart := int(math.Floor(float64(i+1)*every)) + 1
		avgEnd := min(int(math.Floor(float64(i+2)*every))+1, size)
		var avgX, avgY float64
		for j := avgStart; j < avgEnd; j++ {
			avgX += x(j)
			avgY += points[j].Value
		}
		count := float64(avgEnd - avgStart)
		avgX /= count
		avgY /= count

		lo := int(math.Floor(float64(i)*every)) + 1
		hi := int(math.Floor(float64(i+1)*every)) + 1
		ax, ay := x(a), points[a].Value
		best, bestArea := lo, -1.0
		forced := false
		for j := lo; j < hi; j++ {
			area := math.Abs((ax-avgX)*(points[j].Value-ay) - (ax-x(j))*(avgY-ay))
			extreme := j == imin || j == imax
			switch {
			case extreme && (!forced || area > bestArea):
				best, bestArea, forced = j, area, true
			case !forced && area > bestArea:
				best, bestArea = j, area
			}
		}
		out = append(out, points[best])
		a = best
	}
	return append(out, points[size-1])
}

// Last returns the last n points, or points itself when it has no more.
func Last(points []Point, n int) []Point {
	if len(points) <= n {
		return points
	}
	return points[len(points)-n:]
}
