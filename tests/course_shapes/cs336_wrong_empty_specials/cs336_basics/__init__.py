"""A CS336 assignment-1 solution written for the suite's tests: the course's shape, right."""
