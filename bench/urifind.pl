#!/usr/bin/perl
# Print each URI that URI::Find (the default finder, schemed URIs only)
# finds in standard input, one per line. It reads the whole input first.
use strict;
use warnings;
use URI::Find;

binmode STDIN;
binmode STDOUT;
my $text = do { local $/; <STDIN> } // '';
my $finder = URI::Find->new(sub {
	my ($uri, $orig) = @_;
	print "$orig\n";
	return $orig;
});
$finder->find(\$text);
