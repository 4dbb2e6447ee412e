// How to play Sixty-six, for players (the server's full rules are seeds/sixtysix.md).
export default {
  en: `Win tricks until your cards in them are worth **66 card points**, then say “I have enough”. Each hand is worth 1 to 3 game points; the first to the match score (usually 7) wins. With four players, partners sitting opposite play together and need 101.

## Card points
Ace 11, ten 10, king 4, queen 3, jack 2, nine to seven 0.

## Playing
- The face-up card under the stock sets **trump**. Trump beats every other suit; otherwise the highest card of the suit led wins.
- While the stock lasts you may play any card, and after each trick everybody draws one.
- Once the stock is gone or **closed**, you must follow suit and win if you can, else trump.

## Your choices
- **Declare** right after winning a trick. With 66 or more you score: 3 if the others took no trick, 2 if they have under 33, else 1. Declare too early and they score instead.
- **Marriage**: holding the king and queen of a suit, show them as you lead one: +20, or +40 in trumps (classic rules). Their cards are marked +20 or +40 in your hand; leading one shows the marriage, unless you turn that off under the hand.
- **Exchange** the lowest trump for the face-up card (classic rules): tap that card in your hand to exchange it or play it.
- **Close the stock** when you lead, to play the rest by the strict rules. If you then fail to reach 66, the others score 2 or 3. Closing cannot be undone.`,
  fi: `Voita tikkejä, kunnes niiden korttisi ovat **66 korttipisteen** arvoisia, ja sano ”minulla on tarpeeksi”. Jako tuo 1–3 voittopistettä; ensimmäisenä ottelun pistemäärään (yleensä 7) ehtinyt voittaa. Neljällä pelaajalla vastakkain istuvat ovat pari ja tarvitsevat 101.

## Korttipisteet
Ässä 11, kymppi 10, kuningas 4, rouva 3, jätkä 2, ysi–seiska 0.

## Pelaaminen
- Pakan alla oleva avoin kortti määrää **valtin**. Valtti voittaa muut maat; muuten aloitusmaan suurin kortti voittaa.
- Niin kauan kuin pakassa on kortteja, voit pelata minkä tahansa kortin, ja jokaisen tikin jälkeen kaikki nostavat yhden.
- Kun pakka on loppu tai **suljettu**, on tunnustettava maata ja voitettava, jos voi, muuten valtattava.

## Valintasi
- **Ilmoita** heti voitettuasi tikin. Kun sinulla on vähintään 66, saat 3 pistettä, jos muut eivät saaneet tikkiäkään, 2, jos heillä on alle 33, muuten 1. Liian aikainen ilmoitus antaa pisteet muille.
- **Mariaasi**: kun sinulla on saman maan kuningas ja rouva, näytä ne pelatessasi toisen: +20, valtissa +40 (klassiset säännöt). Niiden kortit on merkitty kädessäsi +20 tai +40; kun aloitat toisella, mariaasi näytetään, ellet poista sitä valinnasta kätesi alla.
- **Vaihda** pienin valtti avoimeen valttikorttiin (klassiset säännöt): napauta sitä korttia kädessäsi, niin voit vaihtaa tai pelata sen.
- **Sulje pakka** aloittaessasi, niin loppu pelataan tiukoin säännöin. Jos et sitten saavuta 66:ta, muut saavat 2 tai 3. Sulkemista ei voi perua.`,
};
